import { and, eq, getTableColumns, getTableName, gte, lt, sql } from "drizzle-orm";
import type { PlatformCtx, TenantCtx } from "../../core/context";
import { rawD1 } from "../../core/db/raw";
import { sha256Hex } from "../../core/ids";
import { jakartaDay } from "../../core/time";
import { dayPlus } from "./dates";
import { jenisOf } from "./jenis";
import type { LetterRow } from "./letters";
import { letterVerifications } from "./platform-tables";
import { effectiveSettings } from "./settings";
import { letters } from "./tables";

/**
 * A closed community's letters stay verifiable (issue 42): before its database is wiped, the close
 * copies what the verification page shows of every finished letter into the platform database
 * (`letter_verifications`), and the page reads that copy once the community has closed.
 *
 * Why at the close and not at every change: while the community is open its own database is the one
 * truth the page reads (an RW's acknowledgement, a corrected number, a decline all change it), and a
 * second copy kept in step by every writer could drift; the copy is made once nothing can change any
 * more, by the step that must succeed before the wipe (tenants/closing.ts `finishClosing`, retried by
 * the hourly job until it does), so no letter finished before the close is left out.
 */

/** How long a letter whose type states no validity (a death certificate, a cover letter) is vouched for. */
export const KEEP_UNDATED_DAYS = 5 * 365;

/** The last day the page vouches for a letter: its type's validity from its date, or the fixed term. */
export function validUntilOf(row: Pick<LetterRow, "jenis" | "tanggalSurat">): string | null {
  if (!row.tanggalSurat) {
    return null;
  }
  return dayPlus(row.tanggalSurat, jenisOf(row.jenis).validityDays ?? KEEP_UNDATED_DAYS);
}

/** SQLite's 100 bound parameters per statement: 16 columns a row, so six rows an INSERT. */
const ROWS_PER_INSERT = 6;
const INSERTS_PER_BATCH = 50;
/** A retry overwrites every column but the key with what it read now. */
const OVERWRITE = Object.fromEntries(
  Object.entries(getTableColumns(letterVerifications))
    .filter(([key]) => key !== "codeHash")
    .map(([key, column]) => [key, sql.raw(`excluded.${column.name}`)]),
);

/**
 * Copies every finished, numbered letter still within its validity into the platform database, from
 * the closed community's own (`closedTenantCtx`). Idempotent: a retry overwrites the same rows.
 * Returns how many letters are kept.
 */
export async function keepLetterVerifications(ctx: TenantCtx, platform: PlatformCtx["platform"]) {
  // A slot already emptied (its wipe ran, returning it to the pool did not) has nothing to copy: the
  // wipe runs only after this copy succeeded.
  const table = await rawD1(ctx)
    .prepare("SELECT 1 AS present FROM sqlite_master WHERE type = 'table' AND name = ?")
    .bind(getTableName(letters))
    .first<{ present: number }>();
  if (!table) {
    return 0;
  }
  const today = jakartaDay(ctx.now());
  const keptAt = ctx.now().toISOString();
  const finished = await ctx.db.select().from(letters).where(eq(letters.status, "selesai"));
  // A letter finished before letterheads were kept on it names the settings of the day it closed.
  const current = finished.some((r) => !r.issuedAs) ? await effectiveSettings(ctx) : null;
  const rows = [];
  for (const row of finished) {
    const validUntil = validUntilOf(row);
    if (!row.verificationCode || !row.nomorSurat || !row.tanggalSurat || !validUntil || validUntil < today) {
      continue;
    }
    const signedBy = row.issuedAs ?? current;
    const acknowledged =
      row.rwAckStatus === "diketahui" && row.rwAckName && row.rwAckTitle && row.rwAckAt ? row : null;
    rows.push({
      codeHash: await sha256Hex(row.verificationCode),
      tenantId: ctx.tenant.id,
      letterId: row.id,
      tenantName: ctx.tenant.name,
      nomorSurat: row.nomorSurat,
      jenisName: jenisOf(row.jenis).name,
      tanggalSurat: row.tanggalSurat,
      subjectName: row.subjectName,
      signatoryName: signedBy?.headName ?? "",
      signatoryTitle: signedBy?.headTitle ?? "",
      rwStatus: acknowledged
        ? ("diketahui" as const)
        : row.rwAckStatus === "menunggu"
          ? ("menunggu" as const)
          : null,
      rwName: acknowledged?.rwAckName ?? null,
      rwTitle: acknowledged?.rwAckTitle ?? null,
      rwDay: acknowledged?.rwAckAt ? jakartaDay(acknowledged.rwAckAt) : null,
      validUntil,
      keptAt,
    });
  }
  const inserts = [];
  for (let i = 0; i < rows.length; i += ROWS_PER_INSERT) {
    const chunk = rows.slice(i, i + ROWS_PER_INSERT);
    inserts.push(
      platform.insert(letterVerifications).values(chunk).onConflictDoUpdate({
        target: letterVerifications.codeHash,
        set: OVERWRITE,
      }),
    );
  }
  for (let i = 0; i < inserts.length; i += INSERTS_PER_BATCH) {
    const [first, ...rest] = inserts.slice(i, i + INSERTS_PER_BATCH);
    if (first) {
      await platform.batch([first, ...rest]);
    }
  }
  return rows.length;
}

/** What the page shows of a closed community's letter, while it is valid; null for any other code. */
export async function keptLetter(ctx: PlatformCtx, code: string) {
  const row = await ctx.platform
    .select()
    .from(letterVerifications)
    .where(
      and(
        eq(letterVerifications.codeHash, await sha256Hex(code)),
        gte(letterVerifications.validUntil, jakartaDay(ctx.now())),
      ),
    )
    .get();
  return row ?? null;
}

/** The hourly closing job's sweep: a letter past its validity is no longer vouched for, nor kept. */
export async function dropLapsedVerifications(ctx: PlatformCtx, now: Date): Promise<number> {
  const gone = await ctx.platform
    .delete(letterVerifications)
    .where(lt(letterVerifications.validUntil, jakartaDay(now)))
    .returning({ codeHash: letterVerifications.codeHash });
  return gone.length;
}
