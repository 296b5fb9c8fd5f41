import { eq, sql } from "drizzle-orm";
import type { TenantCtx, TenantDb } from "../../core/context";
import { jakartaDay } from "../../core/time";
import { jenisOf } from "./jenis";
import { formatNumber } from "./numberFormat";
import { type Effective, effectiveSettings, requireComplete } from "./settings";
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
  const settings = await effectiveSettings(ctx);
  requireComplete(settings);
  return suggestedNumber(ctx, settings, input.jenis, input.tanggal ?? jakartaDay(ctx.now()));
}

/**
 * The first free number after the year's counter for a letter of `jenis` dated `day`: what next-number
 * suggests and what finishing assigns when staff send none (the settings must be complete).
 */
export async function suggestedNumber(ctx: TenantCtx, settings: Effective, jenis: string, day: string) {
  const year = Number(day.slice(0, 4));
  const format = settings.numberFormat;
  const row = await ctx.db.select().from(letterSequences).where(eq(letterSequences.year, year)).get();
  const code = jenisOf(jenis).numberCode;
  // A number typed by hand may already hold the next value: skip past used ones.
  for (let seq = (row?.last ?? 0) + 1; seq < (row?.last ?? 0) + 1000; seq++) {
    const nomorSurat = formatNumber(format, { seq, code, rt: settings.rt, rw: settings.rw, day });
    const used = await ctx.db
      .select({ id: letters.id })
      .from(letters)
      .where(eq(letters.nomorSurat, nomorSurat))
      .get();
    if (!used) {
      return { nomorSurat, sequence: seq, year };
    }
  }
  throw new Error("no free letter number within 1000 of the counter");
}
