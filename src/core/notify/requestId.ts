import { AsyncLocalStorage } from "node:async_hooks";

/**
 * The request id of the request in progress (core/http/middleware.ts runs every request inside it), so
 * the notification client forwards it as `X-Request-Id` without every caller passing it: the notify
 * Worker logs it, carries it on the queue message and sends it on to the providers.
 */
const scope = new AsyncLocalStorage<string>();

export function runWithRequestId<T>(requestId: string, fn: () => T): T {
  return scope.run(requestId, fn);
}

export function currentRequestId(): string | undefined {
  return scope.getStore();
}
