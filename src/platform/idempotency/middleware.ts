import type { OpenAPIRoute } from "chanfana";
import type { Context, MiddlewareHandler } from "hono";
import type { HonoEnv } from "../../core/env";
import { DomainError, Invalid, Unprocessable } from "../../core/errors";
import { checkMultipart, isMultipart, MAX_MULTIPART_BYTES } from "../../core/files";
import { readCapped } from "../../core/http/body";
import { type CredentialAnswer, credentialAnswerOf, maxBodyBytesOf } from "../../core/http/endpoint";
import { log } from "../../core/http/log";
import { IDEMPOTENCY_HEADER } from "../../core/http/openapi-document";
import { newId, randomToken } from "../../core/ids";
import { requestDb } from "../../core/tenancy/sessions";
import { slotDatabase } from "../../core/tenancy/slots";
import { systemNow } from "../../core/time";
import { type Reservation, reservationAttachment } from "./hook";

/** How long a first answer is replayed, and after which the sweep deletes the key (ADR 0034). */
export const IDEMPOTENCY_TTL_MS = 24 * 3_600_000;
/** How long a running request holds its key; after that, a key never committed may be taken over. */
export const IDEMPOTENCY_LEASE_MS = 60_000;
/** Seconds a client waits before asking again while the first request runs. */
const IN_PROGRESS_RETRY_AFTER = 1;
/** The largest answer kept for replay; a larger one replays as `idempotency_answer_lost`. */
const MAX_STORED_BODY = 512 * 1024;
const KEY_RE = /^[\x21-\x7e]{1,255}$/;
/** The answer's headers a replay repeats besides its status and body. */
const REPLAYED_HEADERS = ["Content-Type", "Content-Language", "Location", "ETag"] as const;

interface KeyRow {
  request_hash: string;
  state: "pending" | "committed" | "done";
  owner: string;
  locked_until: string;
  status: number | null;
  headers: string | null;
  body: string | null;
  created_at: string;
}

function inProgress(): DomainError {
  return new DomainError(
    "conflict",
    "idempotency_in_progress",
    "A request with this Idempotency-Key is still running; ask again in a moment.",
    { retryAfter: IN_PROGRESS_RETRY_AFTER },
  );
}

/**
 * SHA-256 of method, path and body, the body read against the route's own cap (issue 44, P5): a body
 * that declares a larger `Content-Length` is refused before a byte is read, one that does not is cut off
 * at the cap, with the 413 the route itself gives (`payload_too_large` for JSON, `file_too_large` for an
 * upload). Never more than the route would take is held or hashed.
 */
async function requestHash(c: Context<HonoEnv>, jsonCap: number): Promise<string> {
  const request = c.req.raw;
  let cap = jsonCap;
  if (isMultipart(request)) {
    checkMultipart(request);
    cap = MAX_MULTIPART_BYTES;
  }
  const body = await readCapped(request.clone(), cap);
  const head = new TextEncoder().encode(`${c.req.method} ${new URL(c.req.url).pathname}\n`);
  const all = new Uint8Array(head.byteLength + body.byteLength);
  all.set(head, 0);
  all.set(body, head.byteLength);
  const digest = new Uint8Array(await crypto.subtle.digest("SHA-256", all));
  return Array.from(digest, (b) => b.toString(16).padStart(2, "0")).join("");
}

function answerUnavailable(): DomainError {
  return new DomainError(
    "conflict",
    "idempotency_answer_unavailable",
    "The first request with this Idempotency-Key was applied; its answer carries credentials and is never kept. Use the first answer, or start over with a new key.",
  );
}

function replay(row: KeyRow): Response {
  const headers = new Headers(row.headers ? (JSON.parse(row.headers) as Record<string, string>) : {});
  headers.set("Idempotent-Replayed", "true");
  return new Response(row.body, { status: row.status ?? 200, headers });
}

const SELECT =
  "SELECT request_hash, state, owner, locked_until, status, headers, body, created_at FROM idempotency_keys WHERE scope = ?1 AND key = ?2";

/**
 * Reserves the key (an insert that only the first of two concurrent requests wins), or says why not:
 * the stored answer to replay, or a problem. A key older than the TTL is forgotten first; a `pending` key
 * whose lease ran out without a commit is taken over (its request died before writing anything).
 */
async function reserve(
  r: Reservation,
  now: Date,
  platform: D1Database,
  credentials: CredentialAnswer | undefined,
): Promise<Response | null> {
  for (let attempt = 0; attempt < 3; attempt++) {
    const won = await r.home
      .prepare(
        "INSERT INTO idempotency_keys (scope, key, actor_id, request_hash, state, owner, locked_until, created_at) " +
          "VALUES (?1, ?2, ?3, ?4, 'pending', ?5, ?6, ?7) ON CONFLICT (scope, key) DO NOTHING RETURNING owner",
      )
      .bind(r.scope, r.key, r.actorId, r.requestHash, r.owner, r.lockedUntil, r.createdAt)
      .first<{ owner: string }>();
    if (won) {
      return null;
    }
    const row = await r.home.prepare(SELECT).bind(r.scope, r.key).first<KeyRow>();
    if (!row) {
      continue;
    }
    if (Date.parse(row.created_at) + IDEMPOTENCY_TTL_MS <= now.getTime()) {
      await r.home
        .prepare("DELETE FROM idempotency_keys WHERE scope = ?1 AND key = ?2 AND owner = ?3")
        .bind(r.scope, r.key, row.owner)
        .run();
      continue;
    }
    if (row.request_hash !== r.requestHash) {
      throw new Unprocessable(
        "idempotency_key_reused",
        "This Idempotency-Key was used for another request; use a new key for a new request.",
      );
    }
    if (row.state === "done") {
      // A kept answer of a route that now says it carries credentials (kept before it said so) is not
      // replayed either.
      if (credentials === "no-replay" || row.body === null) {
        throw answerUnavailable();
      }
      return replay(row);
    }
    const leaseOver = Date.parse(row.locked_until) <= now.getTime();
    if (row.state === "committed" || (leaseOver && (await committedElsewhere(r, row, platform)))) {
      if (!leaseOver) {
        throw inProgress();
      }
      throw new DomainError(
        "conflict",
        "idempotency_answer_lost",
        "The first request with this Idempotency-Key was applied, but its answer was not kept; read the resource to see the result.",
      );
    }
    if (!leaseOver) {
      throw inProgress();
    }
    const taken = await r.home
      .prepare(
        "UPDATE idempotency_keys SET owner = ?3, locked_until = ?4 WHERE scope = ?1 AND key = ?2 AND owner = ?5 AND state = 'pending'",
      )
      .bind(r.scope, r.key, r.owner, r.lockedUntil, row.owner)
      .run();
    if (taken.meta.changes === 1) {
      return null;
    }
  }
  throw inProgress();
}

/** A tenant request whose change went to the platform database marked the key there. */
async function committedElsewhere(r: Reservation, row: KeyRow, platform: D1Database): Promise<boolean> {
  if (r.home === platform) {
    return false;
  }
  const marker = await platform
    .prepare(
      "SELECT 1 AS hit FROM idempotency_keys WHERE scope = ?1 AND key = ?2 AND owner = ?3 AND state = 'committed'",
    )
    .bind(r.scope, r.key, row.owner)
    .first();
  return marker !== null;
}

/**
 * Keeps the answer of a request whose change was written; releases the key of one that wrote nothing.
 * A route whose answer carries credentials keeps its status only: the key is `done` without a body.
 */
async function settle(
  r: Reservation,
  res: Response,
  credentials: CredentialAnswer | undefined,
): Promise<void> {
  if (!r.committed) {
    await r.home
      .prepare(
        "DELETE FROM idempotency_keys WHERE scope = ?1 AND key = ?2 AND owner = ?3 AND state = 'pending'",
      )
      .bind(r.scope, r.key, r.owner)
      .run();
    return;
  }
  if (credentials === "no-replay") {
    await r.home
      .prepare(
        "UPDATE idempotency_keys SET state = 'done', status = ?4, headers = NULL, body = NULL WHERE scope = ?1 AND key = ?2 AND owner = ?3",
      )
      .bind(r.scope, r.key, r.owner, res.status)
      .run();
    return;
  }
  const type = res.headers.get("Content-Type") ?? "";
  const text = /json|text/i.test(type) || res.body === null ? await res.clone().text() : null;
  const headers: Record<string, string> = {};
  for (const name of REPLAYED_HEADERS) {
    const value = res.headers.get(name);
    if (value !== null) {
      headers[name] = value;
    }
  }
  if (text === null || text.length > MAX_STORED_BODY) {
    return; // stays `committed`: a replay answers idempotency_answer_lost
  }
  await r.home
    .prepare(
      "UPDATE idempotency_keys SET state = 'done', status = ?4, headers = ?5, body = ?6 WHERE scope = ?1 AND key = ?2 AND owner = ?3",
    )
    .bind(r.scope, r.key, r.owner, res.status, JSON.stringify(headers), text)
    .run();
}

/**
 * `Idempotency-Key` on the write route served by `endpoint` (ADR 0034): runs after the guard, so the
 * caller and the community are known. Without the header, for a caller who is not a signed-in user or a
 * device, or on a route that declares its credential-bearing answer safe to `rerun`, it does nothing.
 * The body is hashed against the route's own cap (`Endpoint.maxBodyBytes`).
 */
export function idempotency(endpoint: typeof OpenAPIRoute): MiddlewareHandler<HonoEnv> {
  const credentials = credentialAnswerOf(endpoint);
  const jsonCap = maxBodyBytesOf(endpoint);
  return (c, next) => (credentials === "rerun" ? next() : honourKey(c, next, credentials, jsonCap));
}

async function honourKey(
  c: Context<HonoEnv>,
  next: () => Promise<void>,
  credentials: CredentialAnswer | undefined,
  jsonCap: number,
): Promise<void> {
  const key = c.req.header(IDEMPOTENCY_HEADER);
  const actor = c.get("actor");
  if (key === undefined || !actor || (actor.kind !== "user" && actor.kind !== "device")) {
    return next();
  }
  if (!KEY_RE.test(key)) {
    throw new Invalid("invalid_input", "Idempotency-Key must be 1 to 255 visible ASCII characters.", [
      { field: IDEMPOTENCY_HEADER, message: "must be 1 to 255 visible ASCII characters" },
    ]);
  }
  const tenant = c.get("tenant");
  const actorId = actor.kind === "user" ? actor.userId : actor.deviceId;
  const now = systemNow();
  const reservation: Reservation = {
    scope: `${actor.kind}:${actorId}@${tenant?.slug ?? "-"}`,
    key,
    actorId,
    requestHash: await requestHash(c, jsonCap),
    owner: `${newId()}.${randomToken(8)}`,
    home: tenant ? slotDatabase(c.env, tenant.slot) : c.env.PLATFORM_DB,
    lockedUntil: new Date(now.getTime() + IDEMPOTENCY_LEASE_MS).toISOString(),
    createdAt: now.toISOString(),
    committed: false,
  };
  const replayed = await reserve(reservation, now, c.env.PLATFORM_DB, credentials);
  if (replayed) {
    c.res = replayed;
    return;
  }
  // Every handle of a context built for this request now carries the mark (ADR 0048).
  const detach = requestDb(c).scope.attach(reservationAttachment(reservation));
  try {
    await next();
  } finally {
    detach();
    try {
      await settle(reservation, c.res, credentials);
    } catch (error) {
      // The change stands; only its replay is lost (a later retry answers idempotency_answer_lost).
      log("error", "idempotency.settle_failed", {
        requestId: c.get("requestId"),
        error: error instanceof Error ? error.message : String(error),
      });
    }
  }
}
