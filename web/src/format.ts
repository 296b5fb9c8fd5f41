import { jakartaDateTime, jakartaShortDate, periodName, rupiah } from "../../src/core/format";
import { language } from "./i18n";

/**
 * The app's one formatter for money and dates: the API's own rules (src/core/format.ts), so a bill reads
 * the same in the app, the letter and the WhatsApp reminder. Rp25.000; 29 Nov 2026 in Asia/Jakarta.
 */
export const money = (amount: number): string => rupiah(amount);
export const date = (instant: string | Date): string => jakartaShortDate(instant, language());
/** A moment with its hour, "29 November 2026, 19.00 WIB": an event's start, a poll's close. */
export const dateTime = (instant: string | Date): string => jakartaDateTime(instant, language());
/** A vehicle plate as the API keeps it, "B 1234 XYZ" however it was typed (src/core/plate.ts, ADR 0047). */
export { displayPlate } from "../../src/core/plate";
/** The Asia/Jakarta calendar day (YYYY-MM-DD) of an instant: "today" as the community counts it. */
export { jakartaDay } from "../../src/core/time";
/** The time of day in Asia/Jakarta, "14.30 WIB" ("14:30 WIB"): where the day goes without saying. */
export function time(instant: string | Date): string {
  const at = new Date(new Date(instant).getTime() + 7 * 3_600_000).toISOString().slice(11, 16);
  return `${language() === "id" ? at.replace(":", ".") : at} WIB`;
}
/** A billing period (YYYY-MM) as "November 2026". */
export const period = (yyyyMm: string): string => periodName(yyyyMm, language());
