import { eq, sql } from "drizzle-orm";
import type { TenantCtx, TenantDb } from "../../core/context";
import { inList } from "../../core/db/lists";
import { jakartaDay } from "../../core/time";
import { jenisOf } from "./jenis";
import { formatNumber } from "./numberFormat";
import { type Effective, effectiveSettings, requireComplete, settingsOf, settingsQuery } from "./settings";
import { letterSequences, letters } from "./tables";

/**
 * Moves the year's counter up to `seq` (never down) in one statement. It rides in the batch of the
 * letter update that uses the number, after that update's guard, so a lost race moves nothing.
 */
export function bumpSequence(db: TenantDb, year: number, seq: number) {
  return db
    .insert(letterSequences)
    .values({ year, last: seq })
    .onConflictDoUpdate({
      target: letterSequences.year,
      set: { last: sql`max(${letterSequences.last}, excluded.last)` },
    });
}

/**
 * The number the next letter of the year would get; nothing is reserved until a letter uses it. 409
 * `letter_settings_incomplete` while a setting the format or the letterhead needs is unset.
 */
export async function nextNumber({
  ctx,
  input,
}: {
  ctx: TenantCtx;
  input: { jenis: string; tanggal?: string };
}) {
  const day = input.tanggal ?? jakartaDay(ctx.now());
  // The stored settings and the year's counter in one batch.
  const [[stored], [counter]] = await ctx.db.batch([
    settingsQuery(ctx.db),
    counterQuery(ctx.db, yearOf(day)),
  ]);
  const settings = await effectiveSettings(ctx, settingsOf(stored));
  requireComplete(settings);
  return suggestedNumber(ctx, settings, input.jenis, day, counter ?? null);
}

const yearOf = (day: string) => Number(day.slice(0, 4));

const counterQuery = (db: TenantDb, year: number) =>
  db.select().from(letterSequences).where(eq(letterSequences.year, year));

/** Numbers tried at once past the counter: a number typed by hand rarely holds more than a few. */
const CANDIDATES = 10;

/**
 * The first free number after the year's counter for a letter of `jenis` dated `day`: what next-number
 * suggests and what finishing assigns when staff send none (the settings must be complete). `counter`
 * is the year's counter row when the caller read it already (null: none yet).
 */
export async function suggestedNumber(
  ctx: TenantCtx,
  settings: Effective,
  jenis: string,
  day: string,
  counter?: { last: number } | null,
) {
  const year = yearOf(day);
  const format = settings.numberFormat;
  const last = (counter === undefined ? await counterQuery(ctx.db, year).get() : counter)?.last ?? 0;
  const code = jenisOf(jenis).numberCode;
  // A number typed by hand may already hold the next value: skip past used ones, a few at a time.
  for (let from = last + 1; from < last + 1000; from += CANDIDATES) {
    const candidates = Array.from({ length: CANDIDATES }, (_, i) => ({
      seq: from + i,
      nomorSurat: formatNumber(format, { seq: from + i, code, rt: settings.rt, rw: settings.rw, day }),
    }));
    const used = await ctx.db
      .select({ nomorSurat: letters.nomorSurat })
      .from(letters)
      .where(
        inList(
          letters.nomorSurat,
          candidates.map((c) => c.nomorSurat),
        ),
      );
    const taken = new Set(used.map((u) => u.nomorSurat));
    const free = candidates.find((c) => !taken.has(c.nomorSurat));
    if (free) {
      return { nomorSurat: free.nomorSurat, sequence: free.seq, year };
    }
  }
  throw new Error("no free letter number within 1000 of the counter");
}
