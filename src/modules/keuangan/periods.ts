import { z } from "zod";
import { DAY_MS, jakartaDay, jakartaDayStart } from "../../core/time";
import type { DuesRate } from "./tables";

/** A period is a calendar month in Asia/Jakarta, written `YYYY-MM`. */
export const PERIOD_RE = /^\d{4}-(0[1-9]|1[0-2])$/;
export const Period = z.string().regex(PERIOD_RE, "a month YYYY-MM");
export const Day = z.string().regex(/^\d{4}-\d{2}-\d{2}$/, "YYYY-MM-DD");

/** The Jakarta period an instant falls in. */
export function periodOf(at: Date | string): string {
  return jakartaDay(at).slice(0, 7);
}

export function nextPeriod(period: string): string {
  const [y, m] = period.split("-").map(Number) as [number, number];
  return m === 12 ? `${y + 1}-01` : `${y}-${String(m + 1).padStart(2, "0")}`;
}

/** The Jakarta month of `now` as an ISO instant range, for `decided_at`. */
export function monthWindow(now: Date) {
  const period = periodOf(now);
  return {
    from: jakartaDayStart(`${period}-01`).toISOString(),
    to: jakartaDayStart(`${nextPeriod(period)}-01`).toISOString(),
  };
}

export function previousPeriod(period: string): string {
  const [y, m] = period.split("-").map(Number) as [number, number];
  return m === 1 ? `${y - 1}-12` : `${y}-${String(m - 1).padStart(2, "0")}`;
}

/** First and last Jakarta day of a period, inclusive. */
export function periodDays(period: string): { first: string; last: string } {
  const first = `${period}-01`;
  const next = jakartaDayStart(`${nextPeriod(period)}-01`);
  return { first, last: jakartaDay(new Date(next.getTime() - DAY_MS)) };
}

/** Whole days from the first day of `period` to the Jakarta day of `now` (0 in the period's first day). */
export function daysSincePeriodStart(period: string, now: Date): number {
  return Math.max(0, Math.floor((now.getTime() - jakartaDayStart(`${period}-01`).getTime()) / DAY_MS));
}

/** The amount in force for a period: the latest rate whose `from` is not after it (null before the first). */
export function rateFor(rates: readonly DuesRate[], period: string): number | null {
  let amount: number | null = null;
  for (const rate of rates) {
    if (rate.from <= period) {
      amount = rate.amount;
    }
  }
  return amount;
}

/** The Jakarta hour (0–23) of an instant. */
export function jakartaHour(at: Date): number {
  return (at.getUTCHours() + 7) % 24;
}

/** Quiet hours for reminders: nothing goes out from 21:00 to 07:00 WIB; they wait until 07:00. */
export function reminderSendAfter(at: Date): Date {
  const hour = jakartaHour(at);
  if (hour >= 7 && hour < 21) {
    return at;
  }
  const day = hour >= 21 ? jakartaDay(new Date(at.getTime() + DAY_MS)) : jakartaDay(at);
  return new Date(jakartaDayStart(day).getTime() + 7 * 3_600_000);
}

/** A dues type's due day when none is set (issue 45): the 10th of the month. */
export const DEFAULT_DUE_DAY = 10;

/** The Jakarta day a period's bill is due: the due day, or the period's last day when the month is shorter. */
export function dueDateOf(period: string, dueDay: number): string {
  const last = periodDays(period).last;
  return Number(last.slice(8)) < dueDay ? last : `${period}-${String(dueDay).padStart(2, "0")}`;
}

/**
 * Whether a bill of `period` is tunggakan at `now`: only once its due day has passed in Asia/Jakarta.
 * On the due day itself it is still "bulan ini".
 */
export function isOverdue(period: string, dueDay: number, now: Date): boolean {
  return jakartaDay(now) > dueDateOf(period, dueDay);
}
