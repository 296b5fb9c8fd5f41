import type { Context, MiddlewareHandler } from "hono";
import type { HonoEnv } from "../env";

/**
 * Parts of a route's URL that are credentials (a reply token, a reset token, a verification code):
 * declared next to the route (`RouteDef.secret`), kept out of the access log, and the answer is never
 * stored by a browser or proxy cache.
 */
export interface SecretParts {
  params?: readonly string[];
  query?: readonly string[];
}

/**
 * Percent-decoded for reading, but only where the text decodes: a malformed escape (`%ff`, `%C3%28`, a
 * lone `%`) is kept as sent, already escaped, so a request the log cannot show decoded is shown raw
 * rather than answered 500 (issue 31, N3).
 */
function readable(query: string): string {
  try {
    return decodeURIComponent(query);
  } catch {
    return query;
  }
}

/**
 * The request's path with each secret parameter replaced by its name, and secret query values dropped.
 * Never throws: a query the URL parser cannot take apart is dropped whole (it may hold a secret).
 */
export function redactedPath(c: Context<HonoEnv>, pattern: string, secret: SecretParts): string {
  const actual = c.req.path.split("/");
  const shape = pattern.split("/");
  const path =
    actual.length === shape.length
      ? actual.map((part, i) => {
          const name = shape[i]?.startsWith(":") ? shape[i]?.slice(1) : undefined;
          return name && secret.params?.includes(name) ? `{${name}}` : part;
        })
      : shape;
  let query: string;
  try {
    const url = new URL(c.req.url);
    for (const key of secret.query ?? []) {
      if (url.searchParams.has(key)) {
        url.searchParams.set(key, "{redacted}");
      }
    }
    query = readable(url.searchParams.toString());
  } catch {
    query = "{unreadable}";
  }
  return path.join("/") + (query ? `?${query}` : "");
}

export function secretRoute(pattern: string, secret: SecretParts): MiddlewareHandler<HonoEnv> {
  return async (c, next) => {
    c.set("logPath", redactedPath(c, pattern, secret));
    await next();
    c.res.headers.set("Cache-Control", "no-store");
  };
}

/** The path as the logs may show it. */
export function loggedPath(c: Context<HonoEnv>): string {
  return c.get("logPath") ?? c.req.path;
}
