import { Invalid } from "./errors";

/** Asia/Jakarta (WIB) has no daylight saving: a fixed UTC+7. */
export const JAKARTA_OFFSET_MINUTES = 7 * 60;
const OFFSET_MS = JAKARTA_OFFSET_MINUTES * 60_000;
const DATE_RE = /^(\d{4})-(\d{2})-(\d{2})$/;

export const DAY_MS = 86_400_000;

/** Something that tells the time: every context is one (`ctx.now()`, built in core/tenancy/contexts.ts). */
export interface Clock {
  now(): Date;
}

let override: (() => Date) | null = null;

/**
 * The platform's clock, which every context core builds reads: the real time, unless a test has set it
 * (`setClockForTests`, through test/helpers/clock.ts). Services read `ctx.now()`, never this directly.
 */
export function systemNow(): Date {
  return override ? override() : new Date();
}

/**
 * The platform's clock as a `Clock`: what every context core builds tells the time with. Only for the
 * few places that run before any context exists (the guard resolving a tenant); a verb passes its `ctx`.
 */
export const platformClock: Clock = { now: () => systemNow() };

/** Tests only: what `systemNow` answers from now on, or `null` for the real time again (after each test). */
export function setClockForTests(now: (() => Date) | null): void {
  override = now;
}

/**
 * The current instant as ISO 8601 UTC, on the given clock: a verb passes its context (`nowIso(ctx)`), a
 * place with no request the clock its context builds. There is no default: every business date says
 * whose time it is, so a test's clock reaches it.
 */
export function nowIso(clock: Clock): string {
  return clock.now().toISOString();
}

/** The instant `days` whole days (of 24 h; Jakarta has no DST) after `from`. */
export function addDays(from: Date | string | number, days: number): Date {
  return new Date(new Date(from).getTime() + days * DAY_MS);
}

/** ISO 8601 with the +07:00 offset, as clients in Indonesia display it. */
export function toJakartaIso(value: Date | string): string {
  const date = typeof value === "string" ? new Date(value) : value;
  const shifted = new Date(date.getTime() + OFFSET_MS).toISOString();
  return `${shifted.slice(0, 19)}+07:00`;
}

/** The UTC instant at which the Jakarta calendar day `YYYY-MM-DD` starts. */
export function jakartaDayStart(day: string, field = "date"): Date {
  const match = DATE_RE.exec(day);
  const utc = match ? Date.UTC(Number(match[1]), Number(match[2]) - 1, Number(match[3])) : Number.NaN;
  const check = new Date(utc);
  // Date.UTC rolls 2026-13-01 over into 2027; a real calendar date survives the round trip unchanged.
  if (!match || Number.isNaN(utc) || check.toISOString().slice(0, 10) !== day) {
    throw new Invalid("invalid_date", `${field} must be a calendar date YYYY-MM-DD.`, [
      { field, message: "expected YYYY-MM-DD" },
    ]);
  }
  return new Date(utc - OFFSET_MS);
}

/**
 * Turns inclusive `from`/`to` calendar days (Asia/Jakarta) into a half-open UTC range [gte, lt),
 * so a row made at 23:30 WIB on the 5th falls in `to=…-05` and one at 00:30 WIB on the 6th does not.
 */
export function jakartaDayRange(from?: string, to?: string): { gte?: string; lt?: string } {
  const range: { gte?: string; lt?: string } = {};
  if (from) {
    range.gte = jakartaDayStart(from, "from").toISOString();
  }
  if (to) {
    range.lt = new Date(jakartaDayStart(to, "to").getTime() + DAY_MS).toISOString();
  }
  if (range.gte && range.lt && range.gte >= range.lt) {
    throw new Invalid("invalid_range", "from must not be after to.", [
      { field: "from", message: "after to" },
    ]);
  }
  return range;
}

/** The Jakarta calendar day (YYYY-MM-DD) of an instant. */
export function jakartaDay(value: Date | string): string {
  const date = typeof value === "string" ? new Date(value) : value;
  return new Date(date.getTime() + OFFSET_MS).toISOString().slice(0, 10);
}
