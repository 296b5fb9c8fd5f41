import { AsyncLocalStorage } from "node:async_hooks";
import type { RateLimitNote } from "../rateLimitHeaders";

/**
 * What one request carries to code far below its handler without every caller passing it, in one
 * store (core/http/middleware.ts `requestContext` opens it around the route):
 * - the request id, which the notification client forwards as `X-Request-Id` (core/notify/requestId.ts);
 * - the notes of the rate limits it went through, for the `RateLimit` answer headers
 *   (core/rateLimitHeaders.ts);
 * - its community's D1 session slot and the client's bookmark (core/tenancy/sessions.ts), null where
 *   no HTTP request opened one (jobs, queue consumers, tests that only name a request id).
 * The batch hook's write attachments (core/idempotency/hook.ts) keep a store of their own: they nest
 * per write route and per versioned resource, inside this one.
 */
export interface RequestScope {
  readonly requestId: string;
  readonly rateLimits: RateLimitNote[];
  /**
   * `RequestSessions` of core/tenancy/sessions.ts, which alone writes and reads it. Opaque here: the
   * notify Worker builds core/notify, which reads this file, and must not take in the main Worker's
   * bindings that the sessions' type names.
   */
  readonly sessions: unknown;
  /**
   * The row a versioned GET is about (core/http/conditional.ts): the first read of it by id
   * (core/db/rows.ts `rowById`) writes its version here, so the tag needs no read of its own.
   */
  rowWatch?: RowWatch | null;
}

export interface RowWatch {
  readonly table: object;
  readonly key: string | number;
  version: number | null;
}

const scope = new AsyncLocalStorage<RequestScope>();

export function runInRequestScope<T>(request: RequestScope, fn: () => T): T {
  return scope.run(request, fn);
}

/** The request in progress, or undefined outside one. */
export function requestScope(): RequestScope | undefined {
  return scope.getStore();
}
