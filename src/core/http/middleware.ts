import type { Context, MiddlewareHandler } from "hono";
import { type HonoEnv, loadConfig } from "../env";
import { newId } from "../ids";
import { type RateLimitNote, rateLimitHeaders } from "../rateLimitHeaders";
import { answerBookmark, requestDb } from "../tenancy/sessions";
import { log } from "./log";
import { runInRequestScope } from "./requestScope";
import { loggedPath } from "./secret";

const REQUEST_ID_RE = /^[A-Za-z0-9._:-]{1,128}$/;

/**
 * The headers every answer carries, computed once per isolate (they were Hono's `secureHeaders` and
 * `cors` middlewares, which between them rebuilt the answer three times per request; ADR 0015). The
 * values are those `secureHeaders` produced for our options, which test/core/errors.test.ts pins.
 */
const CONTENT_SECURITY_POLICY = [
  // The Swagger page and the small HTML pages load only our own scripts and styles.
  "default-src 'self'",
  "script-src 'self'",
  "style-src 'self' 'unsafe-inline'",
  "img-src 'self' data:",
  "frame-ancestors 'none'",
].join("; ");

const SECURITY_HEADERS: readonly (readonly [string, string])[] = [
  ["Content-Security-Policy", CONTENT_SECURITY_POLICY],
  ["Cross-Origin-Opener-Policy", "same-origin"],
  ["Cross-Origin-Resource-Policy", "same-origin"],
  ["Origin-Agent-Cluster", "?1"],
  ["Referrer-Policy", "no-referrer"],
  ["Strict-Transport-Security", "max-age=31536000; includeSubDomains"],
  ["X-Content-Type-Options", "nosniff"],
  ["X-DNS-Prefetch-Control", "off"],
  ["X-Download-Options", "noopen"],
  ["X-Frame-Options", "SAMEORIGIN"],
  ["X-Permitted-Cross-Domain-Policies", "none"],
  ["X-XSS-Protection", "0"],
];

/** CORS for the configured origins (`CORS_ORIGINS`): what browsers may send and read. */
const CORS_EXPOSE_HEADERS =
  "X-Request-Id,Retry-After,RateLimit,RateLimit-Policy,Idempotent-Replayed,Content-Language,X-D1-Bookmark,ETag";
const CORS_ALLOW_HEADERS =
  "Authorization,Content-Type,X-Request-Id,Idempotency-Key,X-D1-Bookmark,If-Match,If-None-Match";
const CORS_ALLOW_METHODS = "GET,POST,PUT,PATCH,DELETE,OPTIONS";
const CORS_MAX_AGE = "600";

/** The headers of every answer: security, CORS exposure (and grant, for a configured origin), request id. */
function finish(headers: Headers, requestId: string, allowOrigin: string | null): void {
  for (const [name, value] of SECURITY_HEADERS) {
    headers.set(name, value);
  }
  if (allowOrigin) {
    headers.set("Access-Control-Allow-Origin", allowOrigin);
  }
  headers.set("Access-Control-Expose-Headers", CORS_EXPOSE_HEADERS);
  headers.set("X-Request-Id", requestId);
}

/** Seconds a 429 or 503 that named no time asks the client to wait (ADR 0034). */
const DEFAULT_RETRY_AFTER: Partial<Record<number, string>> = { 429: "60", 503: "2" };

/**
 * The limits an answer reports: the IETF `RateLimit-Policy` and `RateLimit` of every rate limit the
 * request went through, and a Retry-After on every 429 and 503, also those no problem+json built (the
 * health check's 503).
 */
function answerLimits(res: Response, rateLimits: readonly RateLimitNote[]): void {
  const limits = rateLimitHeaders(rateLimits);
  if (limits) {
    res.headers.set("RateLimit-Policy", limits.policy);
    res.headers.set("RateLimit", limits.state);
  }
  const fallback = DEFAULT_RETRY_AFTER[res.status];
  if (fallback && !res.headers.has("Retry-After")) {
    res.headers.set("Retry-After", fallback);
  }
}

/** A preflight never reaches a route: 204 with the grant (the allowed origin only if it is configured). */
function preflight(requestId: string, allowOrigin: string | null): Response {
  const headers = new Headers();
  finish(headers, requestId, allowOrigin);
  headers.set("Access-Control-Max-Age", CORS_MAX_AGE);
  headers.set("Access-Control-Allow-Methods", CORS_ALLOW_METHODS);
  headers.set("Access-Control-Allow-Headers", CORS_ALLOW_HEADERS);
  headers.set("Vary", "Origin, Access-Control-Request-Headers");
  return new Response(null, { status: 204, statusText: "No Content", headers });
}

/** One access line per request, at `info` (production's level): built after the route has answered. */
function accessLine(c: Context<HonoEnv>, requestId: string, started: number): void {
  log("info", "request", {
    requestId,
    method: c.req.method,
    path: loggedPath(c),
    status: c.res.status,
    ms: Date.now() - started,
    tenant: c.get("tenant")?.slug,
  });
}

/**
 * Everything around a route, in one middleware: the request id (kept from the caller when sane, else
 * a new ULID), the configuration check, CORS for configured origins, the security headers, the
 * community's D1 session and its `X-D1-Bookmark` (core/tenancy/sessions.ts), and one access log line.
 * The answer's headers are set on the route's own answer in place; only an answer whose headers are
 * immutable (a `fetch` passed through, e.g. the Swagger UI assets) is copied once.
 */
export const requestContext: MiddlewareHandler<HonoEnv> = async (c, next) => {
  const requestHeaders = c.req.raw.headers;
  const incoming = requestHeaders.get("X-Request-Id");
  const requestId = incoming && REQUEST_ID_RE.test(incoming) ? incoming : newId();
  c.set("requestId", requestId);
  const config = loadConfig(c.env);
  c.set("config", config);
  const started = Date.now();
  const origin = requestHeaders.get("Origin");
  const allowOrigin = origin && config.corsOrigins.includes(origin) ? origin : null;
  if (c.req.method === "OPTIONS") {
    c.res = preflight(requestId, allowOrigin);
    accessLine(c, requestId, started);
    return;
  }
  const rateLimits: RateLimitNote[] = [];
  // The request's database part (ADR 0048): its tenant reads go through one D1 session, whose bookmark
  // is set below (ADR 0036), and what its writes carry; contexts built from `c` bind it in.
  const { sessions } = requestDb(c);
  // The log-correlation scope: the request id and the rate-limit notes, nothing that reads or writes.
  await runInRequestScope({ requestId, rateLimits }, next);
  let res = c.res;
  try {
    finish(res.headers, requestId, allowOrigin);
  } catch (error) {
    if (!(error instanceof TypeError)) {
      throw error;
    }
    res = new Response(res.body, res);
    finish(res.headers, requestId, allowOrigin);
    c.res = undefined;
    c.res = res;
  }
  res.headers.append("Vary", "Origin");
  answerLimits(res, rateLimits);
  await answerBookmark(sessions, res);
  accessLine(c, requestId, started);
};
