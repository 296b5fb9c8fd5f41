import { addDays } from "../../core/time";

const MONTHS = [
  "Januari",
  "Februari",
  "Maret",
  "April",
  "Mei",
  "Juni",
  "Juli",
  "Agustus",
  "September",
  "Oktober",
  "November",
  "Desember",
];

/** 2026-11-21 → 21 November 2026 (the letter's date is a calendar day, no time zone involved). */
export function tanggalIndonesia(day: string): string {
  const [y, m, d] = day.slice(0, 10).split("-").map(Number);
  return `${d} ${MONTHS[(m ?? 1) - 1]} ${y}`;
}

/** The calendar day `days` after `day` (both YYYY-MM-DD). */
export function dayPlus(day: string, days: number): string {
  return addDays(`${day}T00:00:00Z`, days).toISOString().slice(0, 10);
}
