import { Column, getTableColumns, getTableName, is } from "drizzle-orm";
import type { SQLiteTable } from "drizzle-orm/sqlite-core";
import type { TenantCtx } from "../context";
import { tenantClient } from "../tenancy/slots";

/**
 * A raw statement that commonly leads a request's batch can carry the slot owner check itself, so the
 * check adds no statement of its own (core/tenancy/owner.ts): the gate's scan does.
 */
export { carryingOwnerCheck } from "../tenancy/owner";

/**
 * The one raw path to a tenant's database. Drizzle builds most queries; where building them per request
 * costs measurably (the gate's scan, ADR 0015) or drizzle cannot say it (statements over `sqlite_master`,
 * one batch of generated statements with its audit row: `rawAudit` in core/audit.ts), a verb prepares D1
 * statements on `rawD1(ctx)`: still this tenant's database and no other. Names in that SQL come from the
 * drizzle table objects (`sqlName(visitors.checkedInAt)`), so a renamed column renames its SQL too.
 */
export function rawD1(ctx: Pick<TenantCtx, "db">): D1Database {
  return tenantClient(ctx.db);
}

/**
 * A name in SQL text, double-quoted: a drizzle table or column (its SQL name), or a name read from the
 * database itself (`sqlite_master`, `PRAGMA table_info`).
 */
export function sqlName(of: SQLiteTable | Column | string): string {
  const name = typeof of === "string" ? of : is(of, Column) ? of.name : getTableName(of);
  return `"${name.replaceAll('"', '""')}"`;
}

/** A row for a raw statement, keyed by the table's drizzle field names (a misspelt field does not compile). */
export type RawRow<T extends SQLiteTable> = { [K in keyof T["$inferInsert"]]?: unknown };

/** Rows per INSERT … SELECT FROM json_each(?): one bound JSON text well under D1's 2 MB value limit. */
const JSON_ROWS = 500;

/**
 * Inserts many rows of `table` with one bound parameter per statement (D1 allows 100 parameters a
 * statement; a multi-row VALUES list would need a statement per few rows). The columns are the fields of
 * the first row, every row having the same; their SQL names come from the table object.
 */
export function jsonInserts<T extends SQLiteTable>(
  d1: D1Database,
  table: T,
  rows: readonly RawRow<T>[],
): D1PreparedStatement[] {
  const fields = Object.keys(rows[0] ?? {});
  if (fields.length === 0) {
    return [];
  }
  const columns: Record<string, Column> = getTableColumns(table);
  const names = fields.map((field) => {
    const column = columns[field];
    if (!column) {
      throw new Error(`${getTableName(table)} has no field ${field}`);
    }
    return sqlName(column);
  });
  const picks = fields.map((field) => `json_extract(value, '$.${field}')`).join(", ");
  const text = `INSERT INTO ${sqlName(table)} (${names.join(", ")}) SELECT ${picks} FROM json_each(?1)`;
  const statements: D1PreparedStatement[] = [];
  for (let i = 0; i < rows.length; i += JSON_ROWS) {
    statements.push(d1.prepare(text).bind(JSON.stringify(rows.slice(i, i + JSON_ROWS))));
  }
  return statements;
}
