import { requestScope, runInRequestScope } from "../../core/http/requestScope";

/**
 * The request id of the request in progress (the request scope, core/http/requestScope.ts), so the
 * notification client forwards it as `X-Request-Id` without every caller passing it: the notify Worker
 * logs it, carries it on the queue message and sends it on to the providers.
 */
export function currentRequestId(): string | undefined {
  return requestScope()?.requestId;
}

/** Runs `fn` as work of request `requestId` outside an HTTP request (a job, a test): no limits, no session. */
export function runWithRequestId<T>(requestId: string, fn: () => T): T {
  return runInRequestScope({ requestId, rateLimits: [] }, fn);
}
