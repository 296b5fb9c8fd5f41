import { AsyncLocalStorage } from "node:async_hooks";

/**
 * The request id of the work in progress: the API's `X-Request-Id` for a route, carried on the queue
 * message for a delivery. Ambient so the outbox, the consumer and every provider call log and forward
 * the same id without threading it through each signature; one id finds a message's whole path.
 */
const scope = new AsyncLocalStorage<string>();

export function runWithRequestId<T>(requestId: string | undefined, fn: () => T): T {
  return requestId ? scope.run(requestId, fn) : fn();
}

export function currentRequestId(): string | undefined {
  return scope.getStore();
}

/** The init of an outbound provider call, with the current request id as `X-Request-Id`. */
export function withRequestIdHeader(init: RequestInit = {}): RequestInit {
  const requestId = currentRequestId();
  if (!requestId) {
    return init;
  }
  const headers = new Headers(init.headers);
  headers.set("x-request-id", requestId);
  return { ...init, headers };
}
