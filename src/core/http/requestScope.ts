import { AsyncLocalStorage } from "node:async_hooks";
import type { RateLimitNote } from "../rateLimitHeaders";

/**
 * Log correlation, and only that (ADR 0048): what one request carries to code far below its handler
 * without every caller passing it, in one store (core/http/middleware.ts `requestContext` opens it
 * around the route):
 * - the request id, which the notification client forwards as `X-Request-Id` (core/notify/requestId.ts);
 * - the notes of the rate limits it went through, for the `RateLimit` answer headers
 *   (core/rateLimitHeaders.ts).
 * Nothing here changes what a request reads or writes: the idempotency mark, the If-Match guard and the
 * D1 session ride in the request's contexts (`ctx.db`, `ctx.platform`: core/tenancy/contexts.ts,
 * core/db/handles.ts), built per request and passed down.
 */
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
