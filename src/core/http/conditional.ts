import { getTableName } from "drizzle-orm";
import type { SQLiteColumn, SQLiteTable } from "drizzle-orm/sqlite-core";
import type { Context, MiddlewareHandler } from "hono";
import {
  type DbScope,
  d1Handle,
  type StatementFacts,
  type WriteAttachment,
  type WriteTarget,
} from "../db/handles";
import { platformPreconditionChecks } from "../db/platform-schema";
import { rawD1, sqlName } from "../db/raw";
import { ROW_VERSION } from "../db/row-version";
import { tenantPreconditionChecks } from "../db/tenant-schema";
import type { HonoEnv } from "../env";
import { PreconditionFailed } from "../errors";
import { defineModule, personalColumns, personalData } from "../module";
import { tenantCtx } from "../tenancy/contexts";
import { requestDb } from "../tenancy/sessions";
import type { HttpMethod } from "./access";
import { etagOf, keepJsonText } from "./etag";
import { log } from "./log";

/**
 * Conditional requests (issue 30 item 2, ADR 0035). A module declares which single resources are
 * versioned (`defineModule({ versioned: [versioned("/api/agenda/:id", agenda)] })`); every GET, PUT,
 * PATCH and DELETE route on that path then runs `conditional` after its guard:
 *
 * - GET answers `ETag: "<row_version>-<digest of the body>"` (core/http/etag.ts), and 304 with no body
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

const CONDITIONAL_METHODS: readonly HttpMethod[] = ["get", "put", "patch", "delete"];

/** The middleware a route of a versioned path runs after its guard (src/app.ts), or none. */
export function conditionalHandlers(
  route: { method: HttpMethod; path: string },
  byPath: ReadonlyMap<string, VersionedResource>,
): MiddlewareHandler<HonoEnv>[] {
  const resource = byPath.get(route.path);
  return resource && CONDITIONAL_METHODS.includes(route.method) ? [conditional(resource)] : [];
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

function rowTarget(resource: VersionedResource, c: Context<HonoEnv>): RowTarget {
  const { row } = resource;
  const key =
    "id" in row
      ? row.id
      : keyValue(resource, ("param" in row ? c.req.param(row.param) : c.req.query(row.query)) ?? "");
  return { key, tenantId: c.get("tenant")?.id ?? null };
}

/** `WHERE` of the resource's row, with its parameters bound as ?1 (the key) and ?2 (the community). */
function rowWhere(resource: VersionedResource, target: RowTarget) {
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
async function readVersion(db: D1Database, resource: VersionedResource, target: RowTarget) {
  const { where, binds } = rowWhere(resource, target);
  const row = await db
    .prepare(`SELECT ${sqlName(ROW_VERSION)} AS v FROM ${sqlName(resource.table)} WHERE ${where}`)
    .bind(...binds)
    .first<{ v: number }>();
  return row ? row.v : resource.absent;
}

function conditional(resource: VersionedResource): MiddlewareHandler<HonoEnv> {
  return async (c, next) => {
    if (!c.get("tenant")) {
      return next();
    }
    const target = rowTarget(resource, c);
    keepJsonText(c);
    const { scope } = requestDb(c);
    // The request's own handle on the tenant's database (its D1 session, when there is one), so the
    // handler reads the row no older than this version; the platform's through a plain handle.
    const db =
      resource.home.database === "platform" ? d1Handle(c.env.PLATFORM_DB, null) : rawD1(tenantCtx(c));
    if (c.req.method === "GET" || c.req.method === "HEAD") {
      await conditionalRead(c, next, resource, () => readVersion(db, resource, target), target, scope);
      return;
    }
    const before = await readVersion(db, resource, target);
    const ifMatch = c.req.header("If-Match");
    const from = ifMatch === undefined ? null : expected(ifMatch, before);
    const write = new VersionedWrite(resource, target, from, c.env.PLATFORM_DB, from === STALE);
    const detach = scope.attach(write);
    try {
      await next();
    } finally {
      detach();
    }
    if (write.refused || (write.stale && staleExplains(c.res.status))) {
      // The handler passed its checks and reached a write (whatever a verb that wraps database errors
      // made of the refusal), answered without writing, or refused the row's state: the stale tag
      // refuses it.
      throw new PreconditionFailed();
    }
    await tagWrite(c, write.wrote ? write.version : before);
  };
}

/**
 * A GET of a versioned resource. One whose handler hands its version over (`handsOver`, declared with
 * the resource) runs the handler watching its row: the version comes from the very read the body was
 * built from, with no D1 round trip of its own, and a GET that read nothing by id (a 404) answers
 * without an ETag. Any other has its version read ahead of the handler. The same every time: nothing
 * is learnt per isolate (ADR 0048).
 */
async function conditionalRead(
  c: Context<HonoEnv>,
  next: () => Promise<void>,
  resource: VersionedResource,
  readAhead: () => Promise<number | null>,
  target: RowTarget,
  scope: DbScope,
): Promise<void> {
  if (!resource.handsOver) {
    const before = await readAhead();
    await next();
    await tagRead(c, before);
    return;
  }
  const watch = { table: resource.table, key: target.key, version: null as number | null };
  const unwatch = scope.watch(watch);
  try {
    await next();
  } finally {
    unwatch();
  }
  if (watch.version === null && c.res.status === 200) {
    // A handler declared to read its row by id answered without doing so: no tag rather than a guess.
    log("warn", "conditional.version_not_handed_over", { path: resource.path });
  }
  await tagRead(c, watch.version);
}

/** Entity tags of a header (`"a", W/"b"`), weak ones marked; `*` alone is null. */
function parseTags(header: string): { weak: boolean; tag: string }[] | null {
  if (header.trim() === "*") {
    return null;
  }
  const tags: { weak: boolean; tag: string }[] = [];
  for (const match of header.matchAll(/(W\/)?("[^"]*")/g)) {
    tags.push({ weak: match[1] !== undefined, tag: match[2] ?? "" });
  }
  return tags;
}

const TAG_RE = /^"(\d+)(?:-[0-9a-f]*)?"$/;

/**
 * Whether a stale If-Match is the better answer than the handler's: a success (which wrote nothing) or a
 * refusal of the row's state (409, which the caller's old view explains). The answers about who may
 * touch the row (403, 404) and about the request itself (400, 413, 415, 422) stand.
 */
function staleExplains(status: number): boolean {
  return (status >= 200 && status <= 299) || status === 409;
}

/** An `If-Match` that names another version than the row's: the handler runs, but may write nothing. */
const STALE = -2;

/**
 * The version an `If-Match` lets the write proceed from: the row's, when one of its tags names it
 * (strong comparison: a weak tag never matches) or it is `*`; else `STALE`, refused with 412 once the
 * handler's own checks have passed. A row that is not there (another tenant's id) goes on to the
 * handler, which answers 404, with a guard no row can pass.
 */
function expected(ifMatch: string, current: number | null): number {
  if (current === null) {
    return -1;
  }
  const tags = parseTags(ifMatch);
  const versions = (tags ?? []).filter((t) => !t.weak).map((t) => Number(TAG_RE.exec(t.tag)?.[1] ?? -1));
  return tags === null || versions.includes(current) ? current : STALE;
}

/** If-None-Match compares weakly: the tag's opaque part, `W/` or not. */
function noneMatch(header: string | undefined, etag: string): boolean {
  if (header === undefined) {
    return false;
  }
  const tags = parseTags(header);
  return tags === null || tags.some((t) => t.tag === etag);
}

/** Headers a 304 repeats from the 200 it stands for (RFC 9110 §15.4.5). */
const NOT_MODIFIED_HEADERS = ["Cache-Control", "Content-Location", "Date", "Expires", "Vary"] as const;

async function tagRead(c: Context<HonoEnv>, version: number | null): Promise<void> {
  if (c.res.status !== 200 || version === null) {
    return;
  }
  const etag = await etagOf(c.res, version);
  if (noneMatch(c.req.header("If-None-Match"), etag)) {
    const headers = new Headers({ ETag: etag });
    for (const name of NOT_MODIFIED_HEADERS) {
      const value = c.res.headers.get(name);
      if (value !== null) {
        headers.set(name, value);
      }
    }
    c.res = undefined;
    c.res = new Response(null, { status: 304, headers });
    return;
  }
  c.res.headers.set("ETag", etag);
}

async function tagWrite(c: Context<HonoEnv>, version: number | null): Promise<void> {
  if (c.res.status < 200 || c.res.status > 299 || c.req.method === "DELETE" || version === null) {
    return;
  }
  c.res.headers.set("ETag", await etagOf(c.res, version));
}

const GUARD_FAILED = "precondition_failed";

function errorText(error: unknown): string {
  if (error instanceof Error) {
    return `${error.message} ${error.cause instanceof Error ? error.cause.message : ""}`;
  }
  return String(error);
}

/**
 * What a write under a versioned path adds to each batch that writes its table in its database: the
 * guard ahead (the first such batch only, when the request sent If-Match) and a read of the row's
 * version behind. Which batch writes the table is what the handle knows of its statements
 * (core/db/handles.ts `StatementFacts`): drizzle's metadata of the builder, made from the table object;
 * raw SQL names no table and counts as writing it. Exported for the test that moves the row between the
 * early check and the batch.
 */
export class VersionedWrite implements WriteAttachment {
  wrote = false;
  /** Whether a write was refused for a stale If-Match (the handler had passed its own checks). */
  refused = false;
  version: number | null = null;
  private guarded = false;

  /**
   * `platform`: the platform database's binding, to tell its batches from a tenant database's; `stale`:
   * the request's If-Match names another version, so no batch that writes anything may run.
   */
  constructor(
    private readonly resource: VersionedResource,
    private readonly target: RowTarget,
    private readonly expected: number | null,
    private readonly platform: D1Database,
    readonly stale = false,
  ) {}

  private writesTable(statement: StatementFacts): boolean {
    return (
      statement.write && (statement.tables === null || statement.tables.includes(this.resource.tableName))
    );
  }

  attach({ raw, database }: WriteTarget, statements: readonly StatementFacts[]) {
    if (this.stale && statements.some((s) => s.write)) {
      this.refused = true;
      throw new PreconditionFailed();
    }
    const onPlatform = database === this.platform;
    if (
      onPlatform !== (this.resource.home.database === "platform") ||
      !statements.some((s) => this.writesTable(s))
    ) {
      return null;
    }
    const table = sqlName(this.resource.table);
    const { where, binds } = rowWhere(this.resource, this.target);
    const checks = onPlatform ? platformPreconditionChecks : tenantPreconditionChecks;
    const before =
      this.expected === null || this.guarded
        ? []
        : [
            raw
              .prepare(
                `INSERT OR REPLACE INTO ${sqlName(checks)} ("id", "ok") VALUES (1, ` +
                  `(SELECT coalesce(max(${sqlName(ROW_VERSION)}), 0) FROM ${table} WHERE ${where}) = ?${binds.length + 1})`,
              )
              .bind(...binds, this.expected),
          ];
    const after = [
      raw.prepare(`SELECT ${sqlName(ROW_VERSION)} AS v FROM ${table} WHERE ${where}`).bind(...binds),
    ];
    return { before, after };
  }

  committed(after: readonly D1Result[]): void {
    this.guarded = true;
    this.wrote = true;
    const row = after[0]?.results[0] as { v?: number } | undefined;
    this.version = row?.v ?? null;
  }

  failed(error: unknown): Error | null {
    return errorText(error).includes(GUARD_FAILED) ? new PreconditionFailed() : null;
  }
}

/**
 * Conditional requests as a module: no routes of its own (the middleware runs on the versioned routes,
 * src/app.ts); its one tenant table, the guard's row, holds no personal data and no text.
 */
export const conditionalModule = defineModule({
  name: "conditional",
  routes: [],
  personalData: personalData(personalColumns(tenantPreconditionChecks, {})),
});
