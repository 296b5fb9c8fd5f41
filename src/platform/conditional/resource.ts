import { getTableName } from "drizzle-orm";
import type { SQLiteColumn, SQLiteTable } from "drizzle-orm/sqlite-core";
import type { Context } from "hono";
import { sqlName } from "../../core/db/raw";
import { ROW_VERSION } from "../../core/db/row-version";
import type { HonoEnv } from "../../core/env";

/**
 * Conditional requests (issue 30 item 2, ADR 0035). A module declares which single resources are
 * versioned (`defineModule({ versioned: [versioned("/api/agenda/:id", agenda)] })`); every GET, PUT,
 * PATCH and DELETE route on that path then runs `conditional` after its guard:
 *
 * - GET answers `ETag: "<row_version>-<digest of the body>"` (platform/conditional/etag.ts), and 304 with no body
 *   when `If-None-Match` names it. The version is the one the handler's own read of the row by id
 *   hands over (`rowById`, core/db/rows.ts, tells the request's `DbScope` which this middleware watches:
 *   `handsOver` below, decided when the resource is declared), or, for a resource whose handler does
 *   not read it so, one read ahead of the handler: a tag is never newer than its body.
 * - A write with `If-Match` whose tag's version is not the row's is refused with 412
 *   `precondition_failed`, but only once the handler's own checks have passed: it runs, so a caller who
 *   may not touch the row (another member's record) still hears its 404 or 403 and learns neither that
 *   the row exists nor its version (issue 44); its first write of anything, in any database, is refused
 *   before it is sent, and an answer that wrote nothing or refused the row's state (409) is replaced by
 *   the 412. A matching tag lets the handler run, and its first batch that writes the table (drizzle's
 *   own metadata of the query builder names the table; raw SQL, which names none, counts as writing it)
 *   starts with a guard statement that fails the whole batch if the row moved in between: the check
 *   and the write are one transaction. The guard is a `WriteAttachment` (core/db/handles.ts) added to
 *   the request's scope around the handler, so every handle of the handler's context carries it
 *   (ADR 0048). A write without `If-Match` runs as before. A successful write answers the row's version
 *   as that batch left it.
 *
 * The digest makes a tag change when the body does without the row (a campaign's donation total, a
 * poll's tally); `If-Match` compares the version part only, which is what a lost update is about.
 */
export type VersionedTable = SQLiteTable & { rowVersion: SQLiteColumn };

/**
 * Where the request names its row: a path parameter, a query parameter (a read that names its row in
 * the query: `GET /api/anggaran?tahun=`), or the one row's key of a settings singleton.
 */
export type RowRef = { param: string } | { query: string } | { id: string | number };

export interface RowOptions {
  /** The column the name is matched on; the table's `id` unless said otherwise. */
  key?: SQLiteColumn;
  /**
   * Whether a row that is not there is version 0 (the resource exists before its first save: a budget
   * year with no lines yet) rather than not found. Always so for a settings singleton.
   */
  implicit?: boolean;
  /**
   * Whether the GET handler reads the row by id with `rowById` (core/db/rows.ts), which hands its
   * version over. The default: a tenant table's row named by a path parameter on its `id`; false
   * makes the GET read the version ahead of the handler.
   */
  handsOver?: boolean;
}

/**
 * Which database holds the table. The tenant's own by default; a platform table holds every
 * community's rows, so its row is also matched to the caller's community on `tenantColumn`: another
 * community's row is not there (404, no ETag), never a version leak.
 */
export type VersionedHome = { database: "tenant" } | { database: "platform"; tenantColumn: SQLiteColumn };

export interface VersionedResource {
  /** The route path of the one resource, as in the route table (`/api/agenda/:id`). */
  path: string;
  /** Its table, with the `rowVersion()` column (core/db/row-version.ts) and its trigger. */
  table: VersionedTable;
  /** Which row: see RowRef. */
  row: RowRef;
  /** The key column `row` names. */
  key: SQLiteColumn;
  /** The version of a row that is not there: 0 when the resource exists implicitly, else null (404). */
  absent: 0 | null;
  home: VersionedHome;
  /** Whether the GET handler's own read hands the version over (see RowOptions); else it is read ahead. */
  handsOver: boolean;
  /** The table's SQL name, as drizzle's query metadata names it. */
  tableName: string;
}

/**
 * A versioned resource at `path`, the row named by its `:id` unless said otherwise (`row`, with
 * `row.key` when the row is not found by `id`), in the tenant's database unless `home` says the
 * platform's.
 */
export function versioned(
  path: string,
  table: VersionedTable,
  row: RowRef & RowOptions = { param: "id" },
  home: VersionedHome = { database: "tenant" },
): VersionedResource {
  const key = row.key ?? (table as VersionedTable & { id?: SQLiteColumn }).id;
  if (!key) {
    throw new Error(`versioned ${path}: ${getTableName(table)} has no id column, name the key`);
  }
  const absent = "id" in row || row.implicit ? 0 : null;
  const byId = home.database === "tenant" && "param" in row && key === (table as { id?: SQLiteColumn }).id;
  const handsOver = row.handsOver ?? byId;
  return { path, table, row, key, absent, home, handsOver, tableName: getTableName(table) };
}

/** The row a request names: its key, and the community it must belong to (a platform table's). */
export interface RowTarget {
  key: string | number;
  tenantId: string | null;
}

/** An integer key given as text (a path or query parameter) binds as the number, as zod reads it. */
function keyValue(resource: VersionedResource, text: string): string | number {
  const n = Number(text);
  return resource.key.getSQLType() === "integer" && text.trim() !== "" && Number.isSafeInteger(n) ? n : text;
}

export function rowTarget(resource: VersionedResource, c: Context<HonoEnv>): RowTarget {
  const { row } = resource;
  const key =
    "id" in row
      ? row.id
      : keyValue(resource, ("param" in row ? c.req.param(row.param) : c.req.query(row.query)) ?? "");
  return { key, tenantId: c.get("tenant")?.id ?? null };
}

/** `WHERE` of the resource's row, with its parameters bound as ?1 (the key) and ?2 (the community). */
export function rowWhere(resource: VersionedResource, target: RowTarget) {
  const { home } = resource;
  if (home.database === "platform") {
    return {
      where: `${sqlName(resource.key)} = ?1 AND ${sqlName(home.tenantColumn)} = ?2`,
      binds: [target.key, target.tenantId],
    };
  }
  return { where: `${sqlName(resource.key)} = ?1`, binds: [target.key] };
}

/** The row's version, or `resource.absent` when it is not there. */
export async function readVersion(db: D1Database, resource: VersionedResource, target: RowTarget) {
  const { where, binds } = rowWhere(resource, target);
  const row = await db
    .prepare(`SELECT ${sqlName(ROW_VERSION)} AS v FROM ${sqlName(resource.table)} WHERE ${where}`)
    .bind(...binds)
    .first<{ v: number }>();
  return row ? row.v : resource.absent;
}
