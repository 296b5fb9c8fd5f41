import { eq, sql } from "drizzle-orm";
import type { DrizzleD1Database } from "drizzle-orm/d1";
import type { SQLiteColumn, SQLiteTable } from "drizzle-orm/sqlite-core";
import { type ErrorCode, NotFound } from "../errors";
import { requestScope } from "../http/requestScope";

/** A table with a text primary key named `id`, as every table of ours has. */
type TableWithId = SQLiteTable & { id: SQLiteColumn; $inferSelect: object };

interface RowQuery<Row> {
  get(values: { id: string }): Promise<Row | undefined>;
}

// biome-ignore lint/suspicious/noExplicitAny: one cache holds the prepared queries of every table and schema.
type AnyDb = DrizzleD1Database<any>;

/** Per database instance (one per binding and isolate) and table: the prepared `SELECT … WHERE id = ?`. */
const prepared = new WeakMap<AnyDb, Map<SQLiteTable, RowQuery<unknown>>>();

/**
 * One row by id, or undefined: the read behind every "show one" route and most state checks. The query
 * is built by drizzle once per database and table and kept prepared, so a request pays for binding the
 * id, the round trip and mapping the row, not for rebuilding the same SQL (ADR 0015: about a tenth of
 * an authenticated read's CPU).
 */
export async function rowById<T extends TableWithId>(
  db: AnyDb,
  table: T,
  id: string,
): Promise<T["$inferSelect"] | undefined> {
  let queries = prepared.get(db);
  if (!queries) {
    queries = new Map();
    prepared.set(db, queries);
  }
  let query = queries.get(table) as RowQuery<T["$inferSelect"]> | undefined;
  if (!query) {
    query = db
      .select()
      .from(table as SQLiteTable)
      .where(eq(table.id, sql.placeholder("id")))
      .prepare() as RowQuery<T["$inferSelect"]>;
    queries.set(table, query);
  }
  const row = await query.get({ id });
  noteVersion(table, id, row);
  return row;
}

/** Hands a watched row's version to the versioned GET that watches it (core/http/conditional.ts). */
function noteVersion(table: SQLiteTable, id: string, row: object | undefined): void {
  const watch = requestScope()?.rowWatch;
  if (!watch || watch.version !== null || watch.table !== table || watch.key !== id || !row) {
    return;
  }
  const version = (row as { rowVersion?: unknown }).rowVersion;
  if (typeof version === "number") {
    watch.version = version;
  }
}

/** One row by id, or 404 (`NotFound(what, code)`): the "show one" read and most verbs' first step. */
export async function rowByIdOrNotFound<T extends TableWithId>(
  db: AnyDb,
  table: T,
  id: string,
  what: string,
  code?: ErrorCode,
): Promise<T["$inferSelect"]> {
  const row = await rowById(db, table, id);
  if (!row) {
    throw new NotFound(what, code);
  }
  return row;
}
