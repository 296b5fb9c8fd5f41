import { getTableName } from "drizzle-orm";
import type { TenantCtx } from "../../core/context";
import { rawD1, sqlName } from "../../core/db/raw";
import { tenantSlotOwner } from "../../core/db/tenant-schema";

/**
 * The tenant database read generically, from `sqlite_master` and `PRAGMA table_info`, so a table a
 * later module adds is exported and imported with no change here.
 */

export interface TableInfo {
  name: string;
  columns: string[];
  /** Tables this one points at with foreign keys (written first on import). */
  parents: string[];
  withoutRowid: boolean;
  primaryKey: string[];
  /**
   * Whether the database's own triggers insert its rows (the registry's tallies): such a table is
   * derived from others. Archives leave it out, and an import ignores an archive's copy: restoring the
   * rows it counts rebuilds it through the same triggers, in any order the tables are written.
   */
  keptByTriggers: boolean;
  /**
   * Whether archives carry it: not a table the triggers keep, nor the request bookkeeping of
   * `REQUEST_BOOKKEEPING`. An import ignores an archive's copy of a table archives do not carry.
   */
  archived: boolean;
}

/**
 * Tables that record requests, not the community: `idempotency_keys` keeps answers for replay for 24 h
 * (ADR 0034), and an answer kept before its route said it carries credentials could hold a device's
 * API key or a session's tokens (issue 44, P4). Never exported, never imported, never what makes a
 * tenant "not empty".
 */
const REQUEST_BOOKKEEPING: ReadonlySet<string> = new Set(["idempotency_keys"]);

const TRIGGER_INSERT = /\bINSERT\s+(?:OR\s+\w+\s+)?INTO\s+[`"[]?(\w+)/gi;

/** The tables some trigger inserts rows into, from the triggers' SQL text. */
function triggerTargets(triggers: readonly (string | null)[]): Set<string> {
  const targets = new Set<string>();
  for (const sql of triggers) {
    for (const match of (sql ?? "").matchAll(TRIGGER_INSERT)) {
      targets.add(match[1] as string);
    }
  }
  return targets;
}

/**
 * Tables that are not the community's data: SQLite's own, D1's, the migration ledger, the slot's owner
 * row (core/tenancy/owner.ts: an archive must never carry one community's owner into another's
 * database), FTS shadows.
 */
function isBookkeeping(name: string, virtualTables: string[]): boolean {
  return (
    name.startsWith("sqlite_") ||
    name.startsWith("_cf_") ||
    name === "d1_migrations" ||
    name === getTableName(tenantSlotOwner) ||
    virtualTables.some((v) => name.startsWith(`${v}_`))
  );
}

/** Every data table of the tenant database, parents before children (foreign-key order). */
export async function tenantTables(ctx: TenantCtx): Promise<TableInfo[]> {
  const d1 = rawD1(ctx);
  const { results: all } = await d1
    .prepare("SELECT type, name, sql FROM sqlite_master WHERE type IN ('table', 'trigger') ORDER BY name")
    .all<{ type: string; name: string; sql: string | null }>();
  const results = all.filter((t) => t.type === "table");
  const derived = triggerTargets(all.filter((t) => t.type === "trigger").map((t) => t.sql));
  const virtualTables = results
    .filter((t) => /^CREATE\s+VIRTUAL\s+TABLE/i.test(t.sql ?? ""))
    .map((t) => t.name);
  const names = results.map((t) => t.name).filter((name) => !isBookkeeping(name, virtualTables));
  if (names.length === 0) {
    return [];
  }
  const pragmas = await d1.batch(
    names.flatMap((name) => [
      d1.prepare(`PRAGMA table_info(${sqlName(name)})`),
      d1.prepare(`PRAGMA foreign_key_list(${sqlName(name)})`),
    ]),
  );
  const sqlOf = new Map(results.map((t) => [t.name, t.sql ?? ""]));
  const tables = names.map((name, i): TableInfo => {
    const info = (pragmas[2 * i]?.results ?? []) as { name: string; pk: number }[];
    const fks = (pragmas[2 * i + 1]?.results ?? []) as { table: string }[];
    return {
      name,
      columns: info.map((c) => c.name),
      parents: [...new Set(fks.map((f) => f.table))].filter((t) => t !== name && names.includes(t)),
      withoutRowid: /\)\s*WITHOUT\s+ROWID\s*;?\s*$/i.test(sqlOf.get(name) ?? ""),
      primaryKey: info
        .filter((c) => c.pk > 0)
        .sort((a, b) => a.pk - b.pk)
        .map((c) => c.name),
      keptByTriggers: derived.has(name),
      archived: !derived.has(name) && !REQUEST_BOOKKEEPING.has(name),
    };
  });
  return foreignKeyOrder(tables);
}

/** Parents first; a cycle (which the schema does not have) keeps the remaining tables in name order. */
export function foreignKeyOrder(tables: TableInfo[]): TableInfo[] {
  const done = new Set<string>();
  const ordered: TableInfo[] = [];
  let remaining = [...tables];
  while (remaining.length > 0) {
    const ready = remaining.filter((t) => t.parents.every((p) => done.has(p)));
    const next = ready.length > 0 ? ready : remaining;
    for (const table of next) {
      done.add(table.name);
      ordered.push(table);
    }
    remaining = remaining.filter((t) => !done.has(t.name));
  }
  return ordered;
}

/** The newest migration applied to the tenant database: the archive's schema version. */
export async function schemaVersion(ctx: TenantCtx): Promise<string | null> {
  const row = await rawD1(ctx)
    .prepare("SELECT name FROM d1_migrations ORDER BY id DESC LIMIT 1")
    .first<{ name: string }>();
  return row?.name ?? null;
}

/** A cell as JSON: text, numbers and null as they are; a blob as `{ "$base64": "…" }`. */
export type Cell = string | number | null | { $base64: string };

function encodeCell(value: unknown): Cell {
  if (value === null || typeof value === "string" || typeof value === "number") {
    return value;
  }
  if (typeof value === "bigint") {
    return Number(value);
  }
  if (value instanceof ArrayBuffer || ArrayBuffer.isView(value) || Array.isArray(value)) {
    const bytes =
      value instanceof ArrayBuffer
        ? new Uint8Array(value)
        : ArrayBuffer.isView(value)
          ? new Uint8Array(value.buffer, value.byteOffset, value.byteLength)
          : Uint8Array.from(value as number[]);
    let binary = "";
    for (const b of bytes) {
      binary += String.fromCharCode(b);
    }
    return { $base64: btoa(binary) };
  }
  return String(value);
}

export function decodeCell(cell: Cell): string | number | null | Uint8Array {
  if (cell !== null && typeof cell === "object") {
    return Uint8Array.from(atob(cell.$base64), (c) => c.charCodeAt(0));
  }
  return cell;
}

const PAGE_ROWS = 500;

/** Every row of one table, in storage order, read a page at a time. */
export async function readTable(ctx: TenantCtx, table: TableInfo): Promise<Cell[][]> {
  const d1 = rawD1(ctx);
  const columns = table.columns.map(sqlName).join(", ");
  const rows: Cell[][] = [];
  if (table.withoutRowid) {
    const order = table.primaryKey.map(sqlName).join(", ");
    for (let offset = 0; ; offset += PAGE_ROWS) {
      const page = await d1
        .prepare(`SELECT ${columns} FROM ${sqlName(table.name)} ORDER BY ${order} LIMIT ? OFFSET ?`)
        .bind(PAGE_ROWS, offset)
        .raw();
      rows.push(...page.map((r) => r.map(encodeCell)));
      if (page.length < PAGE_ROWS) {
        return rows;
      }
    }
  }
  let after = -Number.MAX_SAFE_INTEGER;
  for (;;) {
    const page = await d1
      .prepare(
        `SELECT rowid, ${columns} FROM ${sqlName(table.name)} WHERE rowid > ? ORDER BY rowid LIMIT ${PAGE_ROWS}`,
      )
      .bind(after)
      .raw();
    for (const [rowid, ...cells] of page) {
      rows.push(cells.map(encodeCell));
      after = Number(rowid);
    }
    if (page.length < PAGE_ROWS) {
      return rows;
    }
  }
}

/** Whether any data table holds a row (an import goes only into an empty tenant). */
export async function nonEmptyTables(ctx: TenantCtx, tables: TableInfo[]): Promise<string[]> {
  if (tables.length === 0) {
    return [];
  }
  const d1 = rawD1(ctx);
  const results = await d1.batch(
    tables.map((t) => d1.prepare(`SELECT EXISTS (SELECT 1 FROM ${sqlName(t.name)}) AS "any"`)),
  );
  return tables
    .filter((_, i) => (results[i]?.results[0] as { any: number } | undefined)?.any)
    .map((t) => t.name);
}
