import { JAKARTA_OFFSET_MINUTES, jakartaDay } from "./time";

/**
 * How amounts and dates are written for people: rupiah the Indonesian way ("Rp49.000") and calendar
 * dates with month names ("21 November 2026"), in Indonesian or English. Letters, notifications,
 * invoices and the assistant all write them through here.
 */
export type Language = "id" | "en";

const MONTH_NAMES: Record<Language, readonly string[]> = {
  id: [
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
  ],
  en: [
    "January",
    "February",
    "March",
    "April",
    "May",
    "June",
    "July",
    "August",
    "September",
    "October",
    "November",
    "December",
  ],
};

/** The name of month 1–12. */
export function monthName(month: number, language: Language = "id"): string {
  const name = MONTH_NAMES[language][month - 1];
  if (!name) {
    throw new RangeError(`no month ${month}`);
  }
  return name;
}

/** "Rp49.000": whole rupiah with dots between thousands, no space (as Indonesian writes them). */
export function rupiah(amount: number): string {
  const whole = Math.round(amount);
  const digits = String(Math.abs(whole)).replace(/\B(?=(\d{3})+(?!\d))/g, ".");
  return `${whole < 0 ? "-" : ""}Rp${digits}`;
}

/** A calendar day (YYYY-MM-DD, or the start of an ISO string) as "21 November 2026"; no time zone involved. */
export function calendarDate(day: string, language: Language = "id"): string {
  const [y, m, d] = day.slice(0, 10).split("-").map(Number) as [number, number, number];
  return `${d} ${monthName(m, language)} ${y}`;
}

/** The Jakarta calendar day of an instant, written as `calendarDate` writes it. */
export function jakartaDate(instant: Date | string, language: Language = "id"): string {
  return calendarDate(jakartaDay(instant), language);
}

/**
 * The Jakarta calendar day of an instant with the month's first three letters, "29 Nov 2026" ("29 Agu
 * 2026" in Indonesian): where space is short, as in the web app's lists.
 */
export function jakartaShortDate(instant: Date | string, language: Language = "id"): string {
  const [y, m, d] = jakartaDay(instant).split("-").map(Number) as [number, number, number];
  return `${d} ${monthName(m, language).slice(0, 3)} ${y}`;
}

/**
 * An instant as its Jakarta day and time, "29 November 2026, 14.30 WIB" ("…, 14:30 WIB" in English: each
 * language's time separator), where a person needs the hour too (a guest's visit).
 */
export function jakartaDateTime(instant: Date | string, language: Language = "id"): string {
  const at = typeof instant === "string" ? new Date(instant) : instant;
  const [hh, mm] = new Date(at.getTime() + JAKARTA_OFFSET_MINUTES * 60_000)
    .toISOString()
    .slice(11, 16)
    .split(":");
  return `${jakartaDate(at, language)}, ${hh}${language === "id" ? "." : ":"}${mm} WIB`;
}

/** A billing period (YYYY-MM) as "November 2026". */
export function periodName(period: string, language: Language = "id"): string {
  const [year, month] = period.split("-").map(Number) as [number, number];
  return `${monthName(month, language)} ${year}`;
}
