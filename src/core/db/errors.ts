import { eq, type SQL, sql } from "drizzle-orm";
import type { BatchItem } from "drizzle-orm/batch";
import type { DrizzleD1Database } from "drizzle-orm/d1";
import type { SQLiteColumn, SQLiteTable } from "drizzle-orm/sqlite-core";

/**
 * D1 reports a broken unique index only in the error text ("UNIQUE constraint failed: t.a, t.b"), so
 * this is the one place that reads it. `target` is `table.column` (any column of the index) or a table.
 */
export function isUniqueViolation(error: unknown, target?: string): boolean {
  const text = errorText(error);
  const at = text.indexOf("UNIQUE constraint failed:");
  if (at < 0) {
    return false;
  }
  if (!target) {
    return true;
  }
  const columns = text
    .slice(at + "UNIQUE constraint failed:".length)
    .split(/[,\s:]+/)
    .filter(Boolean);
  return target.includes(".") ? columns.includes(target) : columns.some((c) => c.startsWith(`${target}.`));
}

function errorText(error: unknown): string {
  if (error instanceof Error) {
    return `${error.message} ${error.cause instanceof Error ? error.cause.message : String(error.cause ?? "")}`;
  }
  return String(error);
}

const GUARD_FAILED = "batch_guard_failed";

/**
 * D1 runs a batch as one transaction but has no interactive transactions, so a batch cannot read a
 * row and decide. The way to stop a batch half-way is a statement that fails when a guard does not
 * hold: this one calls `json()` on a text that is not JSON unless the row `id` exists and `cond`
 * holds for it (SQLite has no RAISE outside triggers). A missing row aborts too, so a row deleted
 * meanwhile cannot let the rest of the batch (its audit record) land. Put it after the conditional
 * write it guards; catch the batch's error with `isBatchAborted`.
 */
export function abortBatchUnless(
  db: DrizzleD1Database<Record<string, unknown>>,
  table: SQLiteTable & { id: SQLiteColumn },
  id: string,
  cond: SQL,
): BatchItem<"sqlite"> {
  return db
    .select({
      guard: sql`json(CASE WHEN EXISTS (SELECT 1 FROM ${table} WHERE ${eq(table.id, id)} AND ${cond}) THEN '1' ELSE ${GUARD_FAILED} END)`,
    })
    .from(sql`(SELECT 1)`);
}

/** Whether a batch failed because an `abortBatchUnless` guard did not hold. */
export function isBatchAborted(error: unknown): boolean {
  return errorText(error).includes("malformed JSON");
}
