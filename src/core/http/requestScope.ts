import { AsyncLocalStorage } from "node:async_hooks";

/**
 * Log correlation, and only that (ADR 0048): what one request carries to code far below its handler
 * without every caller passing it, in one store (core/http/middleware.ts `requestContext` opens it
 * around the route):
 * - the request id, which the notification client forwards as `X-Request-Id` (platform/notify/requestId.ts);
 * - the notes of the rate limits it went through, for the `RateLimit` answer headers
 *   (core/rateLimitHeaders.ts).
 * Nothing here changes what a request reads or writes: the idempotency mark, the If-Match guard and the
 * D1 session ride in the request's contexts (`ctx.db`, `ctx.platform`: core/tenancy/contexts.ts,
 * core/db/handles.ts), built per request and passed down.
 */
/**
 * What the rate limits a request went through said, for the IETF `RateLimit-Policy` and `RateLimit`
 * answer headers (draft-ietf-httpapi-ratelimit-headers-10): `RateLimit-Policy: "login:ip";q=10;w=900`
 * names each quota and window, `RateLimit: "login:ip";r=9;t=900` what is left and in how many seconds
 * it is whole again. core/rateLimit.ts notes each decision (core/rateLimitHeaders.ts); core/http/middleware.ts writes the headers.
 */
export interface RateLimitNote {
  policy: string;
  limit: number;
  windowSeconds: number;
  remaining: number;
  /** Seconds until the quota is whole again: Retry-After when refused, else at most the window. */
  reset: number;
  unit?: "attempts" | "bytes";
}

export interface RequestScope {
  readonly requestId: string;
  readonly rateLimits: RateLimitNote[];
}

const scope = new AsyncLocalStorage<RequestScope>();

export function runInRequestScope<T>(request: RequestScope, fn: () => T): T {
  return scope.run(request, fn);
}

/** The request in progress, or undefined outside one. */
export function requestScope(): RequestScope | undefined {
  return scope.getStore();
}
