import { calendarDate } from "../../core/format";
import { addDays } from "../../core/time";

/** 2026-11-21 → 21 November 2026 (the letter's date is a calendar day, no time zone involved). */
export const tanggalIndonesia = (day: string): string => calendarDate(day);

/** The calendar day `days` after `day` (both YYYY-MM-DD). */
export function dayPlus(day: string, days: number): string {
  return addDays(`${day}T00:00:00Z`, days).toISOString().slice(0, 10);
}
