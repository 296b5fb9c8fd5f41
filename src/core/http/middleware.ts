import type { MiddlewareHandler } from "hono";
import { cors } from "hono/cors";
import { secureHeaders } from "hono/secure-headers";
import { type Config, type HonoEnv, loadConfig } from "../env";
import { newId } from "../ids";
import { runWithRequestId } from "../notify/requestId";
import { log } from "./log";
import { loggedPath } from "./secret";

const REQUEST_ID_RE = /^[A-Za-z0-9._:-]{1,128}$/;

/** Request id (kept from the caller when sane, else a new ULID), config check, and one access log line. */
export const requestContext: MiddlewareHandler<HonoEnv> = async (c, next) => {
  const incoming = c.req.header("X-Request-Id");
  const requestId = incoming && REQUEST_ID_RE.test(incoming) ? incoming : newId();
  c.set("requestId", requestId);
  c.set("config", loadConfig(c.env));
  const started = Date.now();
  await runWithRequestId(requestId, next);
  c.res.headers.set("X-Request-Id", requestId);
  log("info", "request", {
    requestId,
    method: c.req.method,
    path: loggedPath(c),
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
