import type { PlatformCtx } from "../../src/core/context";
import { jakartaDay, jakartaDayStart, setClockForTests, systemNow } from "../../src/core/time";

/**
 * The clock in tests. Every context core builds reads the platform's clock (`ctx.now()`), so a test
 * sets the time instead of computing "today" from the wall clock, and cannot fail around midnight WIB.
 * `setup.ts` puts the real time back after each test.
 */

/**
 * From now until the end of the test, the platform's clock reads `at` and then runs on with real time
 * (so rows made one after the other keep their order). Requests through `call()` and verbs called directly
 * with a context core built (`memberCtx`) both see it.
 */
export function setNow(at: Date | string): void {
  const offset = new Date(at).getTime() - Date.now();
  setClockForTests(() => new Date(Date.now() + offset));
}

/** The real time again (setup.ts does this after every test). */
export function resetClock(): void {
  setClockForTests(null);
}

/** The same context with its own clock standing at `at`: for one verb called directly. */
export function ctxAt<T extends PlatformCtx>(ctx: T, at: Date | string): T {
  const instant = new Date(at).getTime();
  return { ...ctx, now: () => new Date(instant) };
}

/** An instant on the Jakarta calendar day `day` (YYYY-MM-DD), at `hour`:00 WIB (noon unless told). */
export function jakartaTime(day: string, hour = 12): Date {
  return new Date(jakartaDayStart(day).getTime() + hour * 3_600_000);
}

/**
 * For tests that speak of "in half an hour" or "in two hours" and mean the same Jakarta day (a pass is valid
 * on its visit's day): outside 06:00–18:00 WIB the platform's clock is set to 10:00 WIB of today, so such a
 * test does not fail when it runs in the last hours before midnight WIB (found at 23:50 WIB: a visit "in half
 * an hour" fell on the next day). Call it in `beforeEach`; `setup.ts` puts the real time back after each test.
 */
export function keepToDaytime(): void {
  const now = systemNow();
  const hour = (now.getUTCHours() + 7) % 24;
  if (hour < 6 || hour >= 18) {
    setNow(jakartaTime(jakartaDay(now), 10));
  }
}

/** `hours` from the platform's clock (which a test may have set), as an ISO string. */
export const inHours = (hours: number): string =>
  new Date(systemNow().getTime() + hours * 3_600_000).toISOString();
