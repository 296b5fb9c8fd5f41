import { and, asc, inArray, lt, type SQL, sql } from "drizzle-orm";
import { alias, type SQLiteColumn } from "drizzle-orm/sqlite-core";
import type { TenantCtx } from "../../core/context";
import { inList } from "../../core/db/lists";
import { tenantFiles } from "../../core/db/tenant-schema";
import { CRON, type Job, type JobReport, tenantJob } from "../../core/jobs";
import { defineModule, type FileReference } from "../../core/module";

/**
 * The sweep of unattached uploads. `POST /api/files` stores a file before any row points at it (a proof
 * of payment, a listing photo, complaint evidence); a form that is never submitted leaves it behind,
 * costing storage and keeping personal data the community never used. Once a day this deletes, in each
 * tenant, the files older than the grace period that no declared column (`AppModule.fileReferences`)
 * points at: their rows, then their R2 objects. ADR 0021 has the decision and the tests that hold it.
 */

/** A form may be filled slowly: a file is swept only once it is this much older than the run. */
export const FILE_SWEEP_GRACE_MS = 24 * 60 * 60 * 1000;

/** Rows deleted per statement, and statements per tenant per run: the rest waits for the next day. */
const ROWS_PER_STATEMENT = 100;
const STATEMENTS_PER_RUN = 50;

/** Keys per R2 list page (its maximum) and so per row lookup, bound as one JSON text. */
const KEYS_PER_PAGE = 1000;

export const FILE_SWEEP_JOB = "uploads.sweep-unattached";

/**
 * A reason the sweep must leave a tenant's files alone for now (null: none), given by the composition
 * root from the modules that know one: an archive import writes `files` rows before the rows that point
 * at them, so while one runs every imported file would look unattached.
 */
export type SweepHold = (ctx: TenantCtx) => Promise<string | null>;

/**
 * The condition "no declared column points at the file `fileId`". Every column is qualified with its
 * table, so a declaration naming a column its table lacks is an SQL error ("no such column") that stops
 * the tenant's sweep, instead of silently resolving to a column of `files` and keeping nothing.
 */
function unattached(fileId: SQLiteColumn, references: readonly FileReference[]): SQL {
  const conditions = references.map(({ table, column, holds }) => {
    const ref = sql`${sql.identifier(table)}.${sql.identifier(column)}`;
    return holds === "text"
      ? sql`NOT EXISTS (SELECT 1 FROM ${sql.identifier(table)} WHERE instr(${ref}, ${fileId}) > 0)`
      : sql`${fileId} NOT IN (SELECT ${ref} FROM ${sql.identifier(table)} WHERE ${ref} IS NOT NULL)`;
  });
  return and(...conditions) as SQL;
}

export interface SweepReport extends JobReport {
  /** Files older than the grace period when the run started (attached or not). */
  checked: number;
  /** Of those, files no declared column pointed at: row and object removed. */
  deleted: number;
  /** Objects under the tenant's file prefix, older than the grace period, with no row: removed. */
  orphans: number;
}

/**
 * One tenant's sweep, for the moment `scheduledAt` (never the wall clock). Safe to repeat or to stop
 * anywhere:
 *
 * - Each DELETE chooses its rows and checks every reference in the same statement, so a file attached
 *   while the sweep runs is not deleted; it returns the keys of exactly the rows it removed.
 * - Rows go first, objects after. A run stopped in between leaves objects without rows; the second
 *   pass (R2 objects under the tenant's prefix with no row, older than the grace period) removes them,
 *   in this run or the next. A row whose object is already gone is deleted like any other (deleting a
 *   missing R2 key does nothing).
 * - Objects younger than the grace period are left alone: an upload puts its object a moment before its
 *   row is written (prepareTenantFile), and an archive import writes rows before objects.
 */
export async function sweepUnattachedFiles(
  ctx: TenantCtx,
  scheduledAt: Date,
  references: readonly FileReference[],
): Promise<SweepReport> {
  if (references.length === 0) {
    // An empty list would make every old file look unattached: a wiring mistake, never a policy.
    throw new Error("no file references declared; refusing to sweep the file store");
  }
  const cutoff = new Date(scheduledAt.getTime() - FILE_SWEEP_GRACE_MS);
  const before = cutoff.toISOString();
  const old = await ctx.db
    .select({ n: sql<number>`count(*)` })
    .from(tenantFiles)
    .where(lt(tenantFiles.createdAt, before))
    .get();

  const f = alias(tenantFiles, "f");
  let deleted = 0;
  for (let round = 0; round < STATEMENTS_PER_RUN; round++) {
    const removed = await ctx.db
      .delete(tenantFiles)
      .where(
        inArray(
          tenantFiles.id,
          ctx.db
            .select({ id: f.id })
            .from(f)
            .where(and(lt(f.createdAt, before), unattached(f.id, references)))
            .orderBy(asc(f.id))
            .limit(ROWS_PER_STATEMENT),
        ),
      )
      .returning({ key: tenantFiles.r2Key });
    if (removed.length > 0) {
      await ctx.env.FILES.delete(removed.map((r) => r.key));
    }
    deleted += removed.length;
    if (removed.length < ROWS_PER_STATEMENT) {
      break;
    }
  }

  let orphans = 0;
  const prefix = `tenants/${ctx.tenant.id}/files/`;
  let cursor: string | undefined;
  do {
    const page = await ctx.env.FILES.list({ prefix, cursor, limit: KEYS_PER_PAGE });
    const aged = page.objects.filter((o) => o.uploaded < cutoff).map((o) => o.key);
    if (aged.length > 0) {
      const rows = await ctx.db
        .select({ key: tenantFiles.r2Key })
        .from(tenantFiles)
        .where(inList(tenantFiles.r2Key, aged));
      const known = new Set(rows.map((r) => r.key));
      const lost = aged.filter((key) => !known.has(key));
      if (lost.length > 0) {
        await ctx.env.FILES.delete(lost);
        orphans += lost.length;
      }
    }
    cursor = page.truncated ? page.cursor : undefined;
  } while (cursor);

  return { checked: Number(old?.n ?? 0), deleted, orphans };
}

/** The daily job over every active tenant; `references` are all modules' declarations (src/app.ts). */
export function fileSweepJob(references: readonly FileReference[], holds: readonly SweepHold[] = []): Job {
  return tenantJob(FILE_SWEEP_JOB, CRON.JAKARTA_DAILY, async (ctx, scheduledAt) => {
    for (const hold of holds) {
      const reason = await hold(ctx);
      if (reason) {
        return { checked: 0, deleted: 0, orphans: 0, held: 1 };
      }
    }
    return sweepUnattachedFiles(ctx, scheduledAt, references);
  });
}

/**
 * The sweep as a module of its own, built by the composition root from every module's
 * `fileReferences`, as the erasure and export modules are built from their `personalData`: core does
 * not know the modules, the app hands it their declarations.
 */
export const fileSweepModule = (references: readonly FileReference[], holds: readonly SweepHold[] = []) =>
  defineModule({ name: "uploads-sweep", routes: [], jobs: [fileSweepJob(references, holds)] });
