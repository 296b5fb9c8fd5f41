import type { Context } from "hono";
import type { TenantDb, TenantInfo } from "../context";
import { DbScope } from "../db/handles";
import type { Bindings, HonoEnv } from "../env";
import { log } from "../http/log";
import { ownerChecked } from "./owner";
import { guardedTenantDb, slotDatabase, tenantSessionDb } from "./slots";

/**
 * Reads near the caller (ADR 0036): a request reads its own community's database through one D1
 * session, so D1 may answer its reads from the nearest read replica, and the answer carries the
 * session's bookmark in `X-D1-Bookmark`. A client that sends that header back starts its next session
 * from it and so always reads its own writes, whichever replica answers. Writes go to the primary (the
 * session does that itself). The platform database and every other community's database (an RW's
 * linked RTs, a user's other memberships, jobs, queues, Durable Objects) stay on the primary.
 *
 * The value is `<tenant id>:<D1 bookmark>`: a bookmark is a position in one database's history, so one
 * from another community (a member of two, switching) is never handed to this one's database. The
 * client treats it as opaque and sends back the last one it received.
 */
export const BOOKMARK_HEADER = "X-D1-Bookmark";

/** D1's bookmark as documented (`00000001-00000002-00004e2f-0a83…`) and as local D1 writes it. */
const BOOKMARK_RE = /^([0-9A-Za-z_-]{1,64}):([0-9a-f]{8}-[0-9a-f]{8}-[0-9a-f]{8}-[0-9a-f]{32})$/;
/** Longer than any well-formed value: refused before the pattern looks at it (the fuzz sends 32 KB). */
const MAX_HEADER = 160;

interface SentBookmark {
  tenantId: string;
  bookmark: string;
  /** The header as sent, answered back when the request opened no session of that community. */
  header: string;
}

interface RequestSessions {
  readonly c: Context<HonoEnv>;
  readonly sent: SentBookmark | null;
  opened: { tenantId: string; db: TenantDb; session: D1DatabaseSession } | null;
}

/**
 * What one request binds into the database handles of every context built for it (ADR 0048): its
 * `DbScope` (what its writes carry, who is told of a row read by id; core/db/handles.ts) and its D1
 * session slot. Made once per request, on first ask, and reached only through the request's own Hono
 * context `c` (`requestDb(c)`): the contexts built from `c` (core/tenancy/contexts.ts) carry it on.
 */
export interface RequestDb {
  readonly scope: DbScope;
  readonly sessions: RequestSessions;
}

const requests = new WeakMap<Context<HonoEnv>, RequestDb>();

/** The request's database part, made on first ask (core/http/middleware.ts asks first). */
export function requestDb(c: Context<HonoEnv>): RequestDb {
  let request = requests.get(c);
  if (!request) {
    request = { scope: new DbScope(), sessions: requestSessions(c) };
    requests.set(c, request);
  }
  return request;
}

/**
 * The client's bookmark, or null for none or a malformed one. A malformed header is not refused: a
 * bookmark only says how fresh a read must be, so without one the request reads as a first request
 * does (`first-unconstrained`), and a change of D1's format on Cloudflare's side can cost
 * read-your-writes for one request, never an outage.
 */
export function parseBookmark(header: string | null | undefined): SentBookmark | null {
  if (!header || header.length > MAX_HEADER) {
    return null;
  }
  const match = BOOKMARK_RE.exec(header);
  return match ? { tenantId: match[1] as string, bookmark: match[2] as string, header } : null;
}

/** A request's session slot, none open yet (`requestDb` keeps it for the request). */
function requestSessions(c: Context<HonoEnv>): RequestSessions {
  return { c, sent: parseBookmark(c.req.header(BOOKMARK_HEADER)), opened: null };
}

/** The community the client's bookmark follows: the one the guard resolved, or the user token's. */
function homeSlug(c: Context<HonoEnv>): string | null {
  const tenant = c.get("tenant");
  if (tenant) {
    return tenant.slug;
  }
  const actor = c.get("actor");
  return actor?.kind === "user" ? actor.tenantSlug : null;
}

/**
 * The database a context of `tenant` gets (core/tenancy/contexts.ts): inside a request for that very
 * community, the request's session (opened on first use from the client's bookmark); anywhere else the
 * slot's binding, which always reads the primary. Either way the handle checks, before its first
 * statement answers, that the slot still belongs to `tenant` (owner.ts): once per session, once per
 * context on the primary; and carries the request's scope, when the context was built for a request.
 */
export function contextTenantDb(bindings: Bindings, tenant: TenantInfo, request: RequestDb | null): TenantDb {
  const guard = (raw: D1Database) => ownerChecked(bindings, tenant, raw);
  const state = request?.sessions;
  const scope = request?.scope ?? null;
  if (!state || homeSlug(state.c) !== tenant.slug) {
    return guardedTenantDb(bindings, tenant.slot, guard, scope);
  }
  if (state.opened?.tenantId !== tenant.id) {
    const from = state.sent?.tenantId === tenant.id ? state.sent.bookmark : "first-unconstrained";
    state.opened = { tenantId: tenant.id, ...tenantSessionDb(bindings, tenant.slot, from, guard, scope) };
  }
  return state.opened.db;
}

/**
 * A bookmark of the primary as it is now. A retry that is answered from the idempotency record (a
 * replay, or 409 when the first answer was lost) ran nothing in its session, yet the first attempt
 * wrote: the client, which never got the first answer, needs a bookmark at least that new.
 */
async function primaryBookmark(bindings: Bindings, tenant: TenantInfo): Promise<string | null> {
  try {
    const session = slotDatabase(bindings, tenant.slot).withSession("first-primary");
    await session.prepare("SELECT 1").first();
    return session.getBookmark();
  } catch (error) {
    log("warn", "d1.bookmark_failed", { error: error instanceof Error ? error.message : String(error) });
    return null;
  }
}

function answeredFromIdempotencyRecord(c: Context<HonoEnv>, res: Response): boolean {
  return (
    res.headers.get("Idempotent-Replayed") === "true" ||
    (res.status === 409 && c.req.header("Idempotency-Key") !== undefined)
  );
}

/**
 * Sets `X-D1-Bookmark` on the answer, after the route ran (so after its writes): the session's latest
 * bookmark; else the client's own, answered back unchanged (a sign-in or a platform route opened no
 * session, and the client must not lose its place); else nothing (a first request refused before it
 * read anything).
 */
export async function answerBookmark(state: RequestSessions, res: Response): Promise<void> {
  const { c, opened, sent } = state;
  const tenant = c.get("tenant");
  let value: string | null = null;
  if (tenant && answeredFromIdempotencyRecord(c, res)) {
    const bookmark = await primaryBookmark(c.env, tenant);
    value = bookmark ? `${tenant.id}:${bookmark}` : null;
  }
  if (!value && opened) {
    const bookmark = opened.session.getBookmark();
    value = bookmark ? `${opened.tenantId}:${bookmark}` : null;
  }
  value ??= sent?.header ?? null;
  if (value) {
    res.headers.set(BOOKMARK_HEADER, value);
  }
}
