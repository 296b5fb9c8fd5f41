import type { MiddlewareHandler } from "hono";
import { cors } from "hono/cors";
import { secureHeaders } from "hono/secure-headers";
import { type Config, type HonoEnv, loadConfig } from "../env";
import { newId } from "../ids";
import { log } from "./log";
import { problemResponse } from "./problem";

const REQUEST_ID_RE = /^[A-Za-z0-9._:-]{1,128}$/;

/** Request id (kept from the caller when sane, else a new ULID), config check, and one access log line. */
export const requestContext: MiddlewareHandler<HonoEnv> = async (c, next) => {
  const incoming = c.req.header("X-Request-Id");
  const requestId = incoming && REQUEST_ID_RE.test(incoming) ? incoming : newId();
  c.set("requestId", requestId);
  c.set("config", loadConfig(c.env));
  const started = Date.now();
  await next();
  c.res.headers.set("X-Request-Id", requestId);
  log("info", "request", {
    requestId,
    method: c.req.method,
    path: c.req.path,
    status: c.res.status,
    ms: Date.now() - started,
    tenant: c.get("tenant")?.slug,
  });
};

export const securityHeaders = secureHeaders({
  // The Swagger page and the small HTML pages load only our own scripts and styles.
  contentSecurityPolicy: {
    defaultSrc: ["'self'"],
    scriptSrc: ["'self'"],
    styleSrc: ["'self'", "'unsafe-inline'"],
    imgSrc: ["'self'", "data:"],
    frameAncestors: ["'none'"],
  },
  strictTransportSecurity: "max-age=31536000; includeSubDomains",
  referrerPolicy: "no-referrer",
});

/** Built once: the allowed origins are read from the request's config on each preflight. */
export const corsForConfiguredOrigins: MiddlewareHandler<HonoEnv> = cors({
  origin: (origin, c) => ((c.get("config") as Config).corsOrigins.includes(origin) ? origin : null),
  allowHeaders: ["Authorization", "Content-Type", "X-Request-Id", "Idempotency-Key"],
  allowMethods: ["GET", "POST", "PUT", "PATCH", "DELETE", "OPTIONS"],
  exposeHeaders: ["X-Request-Id", "Retry-After"],
  maxAge: 600,
});

/**
 * chanfana replaces a body that is not JSON with `{}`, which a schema of optional fields would accept.
 * Parse a clone first so malformed JSON is a 400 of its own; a non-JSON content type on a JSON route
 * is left to the route (multipart uploads use their own type).
 */
export const rejectMalformedJson: MiddlewareHandler<HonoEnv> = async (c, next) => {
  const method = c.req.method;
  const type = c.req.header("Content-Type") ?? "";
  if ((method === "POST" || method === "PUT" || method === "PATCH") && type.includes("application/json")) {
    const text = await c.req.raw.clone().text();
    if (text.trim() !== "") {
      try {
        JSON.parse(text);
      } catch {
        return problemResponse(c, 400, "malformed_json", "The request body is not valid JSON.");
      }
    }
  }
  return next();
};
