import { inArray } from "drizzle-orm";
import { type Channel, preferences } from "../db/schema";
import type { ServiceContext } from "./context";

export interface Preferences {
  push: boolean;
  whatsapp: boolean;
  email: boolean;
  quietHours: { start: string; end: string };
}

/** A user who never chose: every channel on, quiet from 21:00 to 07:00 Jakarta time. */
export const DEFAULT_PREFERENCES: Preferences = {
  push: true,
  whatsapp: true,
  email: true,
  quietHours: { start: "21:00", end: "07:00" },
};

type PreferenceRow = typeof preferences.$inferSelect;

const fromRow = (row: PreferenceRow): Preferences => ({
  push: row.push,
  whatsapp: row.whatsapp,
  email: row.email,
  quietHours: { start: row.quietStart, end: row.quietEnd },
});

export async function getPreferences(ctx: ServiceContext, userId: string): Promise<Preferences> {
  const [found] = (await preferencesOf(ctx, [userId])).values();
  return found ?? DEFAULT_PREFERENCES;
}

export async function putPreferences(
  ctx: ServiceContext,
  userId: string,
  input: Preferences,
): Promise<Preferences> {
  const values = {
    push: input.push,
    whatsapp: input.whatsapp,
    email: input.email,
    quietStart: input.quietHours.start,
    quietEnd: input.quietHours.end,
    updatedAt: ctx.now().toISOString(),
  };
  const row = await ctx.db
    .insert(preferences)
    .values({ userId, ...values })
    .onConflictDoUpdate({ target: preferences.userId, set: values })
    .returning()
    .get();
  return fromRow(row);
}

/** The stored preferences of these users; users without a row are absent (they have the defaults). */
export async function preferencesOf(
  ctx: ServiceContext,
  userIds: readonly string[],
): Promise<Map<string, Preferences>> {
  const found = new Map<string, Preferences>();
  const unique = [...new Set(userIds)];
  // D1 binds at most 100 parameters per statement.
  for (let i = 0; i < unique.length; i += 90) {
    const rows = await ctx.db
      .select()
      .from(preferences)
      .where(inArray(preferences.userId, unique.slice(i, i + 90)))
      .all();
    for (const row of rows) {
      found.set(row.userId, fromRow(row));
    }
  }
  return found;
}

export const accepts = (prefs: Preferences, channel: Channel): boolean => prefs[channel];

const JAKARTA_OFFSET_MS = 7 * 3_600_000;
const MINUTE_MS = 60_000;
const DAY_MINUTES = 24 * 60;

const minutesOf = (hhmm: string): number => {
  const [h, m] = hhmm.split(":").map(Number);
  return (h ?? 0) * 60 + (m ?? 0);
};

/**
 * When the user's quiet hours end, if `at` falls inside them; null otherwise. Quiet hours are a
 * Jakarta wall-clock window (UTC+7, no daylight saving) that may wrap midnight (21:00–07:00); a
 * window whose start equals its end is no window at all. The start minute is quiet, the end minute
 * is not.
 */
export function quietUntil(prefs: Preferences, at: Date): Date | null {
  const start = minutesOf(prefs.quietHours.start);
  const end = minutesOf(prefs.quietHours.end);
  if (start === end) {
    return null;
  }
  const local = at.getTime() + JAKARTA_OFFSET_MS;
  const dayStart = Math.floor(local / (DAY_MINUTES * MINUTE_MS)) * DAY_MINUTES * MINUTE_MS;
  const minute = (local - dayStart) / MINUTE_MS;
  const quiet = start < end ? minute >= start && minute < end : minute >= start || minute < end;
  if (!quiet) {
    return null;
  }
  // The end is later today, or (past midnight's other side of a wrapping window) tomorrow.
  const endToday = dayStart + end * MINUTE_MS;
  const endLocal = minute < end ? endToday : endToday + DAY_MINUTES * MINUTE_MS;
  return new Date(endLocal - JAKARTA_OFFSET_MS);
}
