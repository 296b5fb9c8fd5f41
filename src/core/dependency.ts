import { DomainError } from "./errors";
import { log } from "./http/log";

/**
 * Durable Objects and D1 fail honestly (ADR 0034): a call that throws is tried once more when the error
 * says that is safe, and otherwise the request answers 503 `dependency_unavailable` with Retry-After,
 * never 500.
 *
 * Durable Objects mark their errors: `.retryable` (safe to try again if the call is idempotent),
 * `.overloaded` (never retry: it deepens the overload), `.remote` (thrown by the object's own code)
 * (developers.cloudflare.com/durable-objects/best-practices/error-handling/). D1 errors say it in their
 * text: Cloudflare's own retry example retries "Network connection lost", "storage caused object to be
 * reset" and "reset because its code was updated" (d1/best-practices/retry-queries/), and an overloaded
 * database says "D1 DB is overloaded".
 */
const D1_RETRYABLE = [
  "Network connection lost",
  "storage caused object to be reset",
  "reset because its code was updated",
];
const D1_UNAVAILABLE = [
  ...D1_RETRYABLE,
  "D1 DB is overloaded",
  "D1_ERROR: Internal",
  "Too many requests queued",
];

/** Seconds a client waits after a 503 `dependency_unavailable`. */
export const DEPENDENCY_RETRY_AFTER = 2;

function prop(error: unknown, name: string): unknown {
  return typeof error === "object" && error !== null ? (error as Record<string, unknown>)[name] : undefined;
}

function text(error: unknown): string {
  return error instanceof Error ? error.message : String(error);
}

/** Whether the error says one more try is safe (and not an overload, which a retry makes worse). */
export function isRetryable(error: unknown): boolean {
  if (prop(error, "overloaded") === true) {
    return false;
  }
  return prop(error, "retryable") === true || D1_RETRYABLE.some((m) => text(error).includes(m));
}

/** Whether the error is a dependency failing rather than our own bug or a refused statement. */
export function isDependencyFailure(error: unknown): boolean {
  // An overloaded Durable Object keeps its own answer (503 `busy`, http/problem.ts).
  if (error instanceof DomainError || prop(error, "overloaded") === true) {
    return false;
  }
  return prop(error, "retryable") === true || D1_UNAVAILABLE.some((m) => text(error).includes(m));
}

export function dependencyUnavailable(what: string, error?: unknown): DomainError {
  log("warn", "dependency.unavailable", {
    dependency: what,
    error: error === undefined ? undefined : text(error),
  });
  return new DomainError(
    "unavailable",
    "dependency_unavailable",
    "A service this request needs is unavailable for a moment; try again shortly.",
    { retryAfter: DEPENDENCY_RETRY_AFTER },
  );
}

/**
 * Runs `call`, once more if it fails in a retryable way, and turns a dependency failure into 503
 * `dependency_unavailable`. Anything else (our own error, a constraint) passes through unchanged, unless
 * `everyFailure`: a Durable Object call, where whatever the stub throws (its infrastructure's error, or
 * the object's own code's, `.remote`) is the dependency failing; only an overload keeps its own answer.
 */
export async function callDependency<T>(
  what: string,
  call: () => Promise<T>,
  options: { everyFailure?: boolean } = {},
): Promise<T> {
  const failed = (error: unknown) =>
    options.everyFailure
      ? !(error instanceof DomainError) && prop(error, "overloaded") !== true
      : isDependencyFailure(error);
  try {
    return await call();
  } catch (first) {
    if (isRetryable(first)) {
      log("warn", "dependency.retry", { dependency: what, error: text(first) });
      try {
        return await call();
      } catch (second) {
        throw failed(second) ? dependencyUnavailable(what, second) : second;
      }
    }
    throw failed(first) ? dependencyUnavailable(what, first) : first;
  }
}

const guarded = new WeakMap<object, unknown>();

/**
 * A Durable Object namespace whose stubs call through `callDependency`: every method call on a stub
 * (RPC or `fetch`) is tried once more on a retryable error and answers 503 otherwise. Core wraps every
 * namespace of the bindings it hands to verbs (core/tenancy/contexts.ts `serviceEnv`).
 */
export function guardNamespace<N extends DurableObjectNamespace>(ns: N, what: string): N {
  const known = guarded.get(ns);
  if (known) {
    return known as N;
  }
  const wrapStub = (stub: object) =>
    new Proxy(stub, {
      get(target, name) {
        const value = Reflect.get(target, name);
        if (typeof value !== "function" || typeof name === "symbol") {
          return value;
        }
        return (...args: unknown[]) =>
          callDependency(what, () => Promise.resolve(Reflect.apply(value, target, args) as unknown), {
            everyFailure: true,
          });
      },
    });
  const proxy = new Proxy(ns, {
    get(target, name) {
      const value = Reflect.get(target, name);
      if (name === "get" || name === "getByName") {
        return (...args: unknown[]) => wrapStub(Reflect.apply(value as () => object, target, args));
      }
      return typeof value === "function" ? value.bind(target) : value;
    },
  });
  guarded.set(ns, proxy);
  return proxy;
}

/** Whether a binding is a Durable Object namespace. */
export function isNamespace(value: unknown): value is DurableObjectNamespace {
  return typeof prop(value, "idFromName") === "function" && typeof prop(value, "get") === "function";
}
