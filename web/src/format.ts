import { jakartaDateTime, jakartaShortDate, periodName, rupiah } from "../../src/core/format";
import { language } from "./i18n";

/**
 * The app's one formatter for money and dates: the API's own rules (src/core/format.ts), so a bill reads
 * the same in the app, the letter and the WhatsApp reminder. Rp25.000; 29 Nov 2026 in Asia/Jakarta.
 */
export const money = (amount: number): string => rupiah(amount);
export const date = (instant: string | Date): string => jakartaShortDate(instant, language());
/** "29 November 2026, 14.30 WIB": where the hour matters too (a payment on a receipt). */
export const dateTime = (instant: string | Date): string => jakartaDateTime(instant, language());
/** A billing period (YYYY-MM) as "November 2026". */
export const period = (yyyyMm: string): string => periodName(yyyyMm, language());
