import { type Column, eq, getTableColumns, getTableName, sql } from "drizzle-orm";
import type { DrizzleD1Database } from "drizzle-orm/d1";
import type { SQLiteColumn, SQLiteTable } from "drizzle-orm/sqlite-core";
import { type ErrorCode, NotFound } from "../errors";
import { carryingOwnerCheck } from "../tenancy/owner";
import { asRead, scopeOfHandle } from "./handles";

/** A table with a text primary key named `id`, as every table of ours has. */
type TableWithId = SQLiteTable & { id: SQLiteColumn; $inferSelect: object };

// biome-ignore lint/suspicious/noExplicitAny: one cache holds the queries of every table and schema.
type AnyDb = DrizzleD1Database<any>;

/** A table's `SELECT … WHERE id = ?` as drizzle builds it, and the columns its values come back in. */
interface RowQuery {
  sql: string;
  columns: readonly (readonly [field: string, column: Column])[];
}

/** Per table: its row query, built once per isolate whatever database it then runs on. */
const queries = new WeakMap<SQLiteTable, RowQuery>();

function rowQuery(db: AnyDb, table: TableWithId): RowQuery {
  let query = queries.get(table);
  if (!query) {
    const columns = Object.entries(getTableColumns(table));
    const selection = Object.fromEntries(columns);
    const built = db
      .select(selection)
      .from(table as SQLiteTable)
      .where(eq(table.id, sql.placeholder("id")))
      .toSQL();
    // The commonest first read of a request: it carries the slot owner check itself on a tenant handle
    // (core/tenancy/owner.ts), so the check adds no statement to the request. Its one parameter is the id.
    const text = carryingOwnerCheck(1, (limit) => (limit ? `${built.sql} ${limit}` : built.sql));
    query = { sql: text, columns };
    queries.set(table, query);
  }
  return query;
}

/**
 * One row by id, or undefined: the read behind every "show one" route and most state checks. The SQL is
 * built by drizzle once per table and isolate, and each call binds the id on the database it is given
 * and maps the values through the columns' own decoders, as drizzle's select does. A request's tenant
 * database is a drizzle instance of its own (its D1 session, core/tenancy/sessions.ts), so a query
 * prepared per instance was built again on every request (ADR 0015: about a tenth of an authenticated
 * read's CPU).
 */
export async function rowById<T extends TableWithId>(
  db: AnyDb,
  table: T,
  id: string,
): Promise<T["$inferSelect"] | undefined> {
  const { sql: text, columns } = rowQuery(db, table);
  const client = clientOf(db);
  // A batch of one: on a tenant handle's first statement the slot owner check rides in the statement
  // itself (core/tenancy/owner.ts), where `raw()`, which has no batch form, costs the check a call of its own.
  // The row comes back keyed by column name; a table's names are unique, so nothing is lost.
  const statement = asRead(client.prepare(text).bind(id), [getTableName(table)]);
  const [result] = await client.batch<Record<string, unknown>>([statement]);
  const found = result?.results[0];
  const row = found ? decodeRow(columns, found) : undefined;
  noteVersion(client, table, id, row);
  return row as T["$inferSelect"] | undefined;
}

/** The D1 client under a drizzle database: drizzle keeps it as `$client`, which its type leaves out. */
function clientOf(db: AnyDb): D1Database {
  const client = (db as AnyDb & { $client?: D1Database }).$client;
  if (!client) {
    throw new Error("rowById needs a drizzle database over D1");
  }
  return client;
}

function decodeRow(columns: RowQuery["columns"], found: Record<string, unknown>): Record<string, unknown> {
  const row: Record<string, unknown> = {};
  for (const [field, column] of columns) {
    const value = found[column.name];
    row[field] = value === null || value === undefined ? null : column.mapFromDriverValue(value);
  }
  return row;
}

/**
 * Hands the row's version to the request whose handle read it (core/db/handles.ts `DbScope`): a
 * versioned GET watching that row (platform/conditional) tags its answer with it.
 */
function noteVersion(client: D1Database, table: SQLiteTable, id: string, row: object | undefined): void {
  const version = (row as { rowVersion?: unknown } | undefined)?.rowVersion;
  if (typeof version === "number") {
    scopeOfHandle(client)?.rowRead(table, id, version);
  }
}

/**
 * Notes the version of a row read by id some other way than `rowById` (in a batch with other reads of
 * the request), as `rowById` notes it: a versioned GET watching that row tags its answer with it.
 */
export function noteRowVersion(db: AnyDb, table: TableWithId, id: string, row: object | undefined): void {
  noteVersion(clientOf(db), table, id, row);
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
