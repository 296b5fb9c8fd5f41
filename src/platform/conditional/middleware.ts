import type { Context, MiddlewareHandler } from "hono";
import { type DbScope, d1Handle } from "../../core/db/handles";
import { rawD1 } from "../../core/db/raw";
import type { HonoEnv } from "../../core/env";
import { PreconditionFailed } from "../../core/errors";
import type { HttpMethod } from "../../core/http/access";
import { log } from "../../core/http/log";
import { tenantCtx } from "../../core/tenancy/contexts";
import { requestDb } from "../../core/tenancy/sessions";
import { etagOf, keepJsonText } from "./etag";
import { type RowTarget, readVersion, rowTarget, type VersionedResource } from "./resource";
import { VersionedWrite } from "./write-guard";

/**
 * The middleware of conditional requests (ADR 0035): what resource.ts describes, run on the GET, PUT,
 * PATCH and DELETE routes of a versioned path after their guard; the write guard is write-guard.ts.
 */
const CONDITIONAL_METHODS: readonly HttpMethod[] = ["get", "put", "patch", "delete"];

/** The middleware a route of a versioned path runs after its guard (src/app.ts), or none. */
export function conditionalHandlers(
  route: { method: HttpMethod; path: string },
  byPath: ReadonlyMap<string, VersionedResource>,
): MiddlewareHandler<HonoEnv>[] {
  const resource = byPath.get(route.path);
  return resource && CONDITIONAL_METHODS.includes(route.method) ? [conditional(resource)] : [];
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
