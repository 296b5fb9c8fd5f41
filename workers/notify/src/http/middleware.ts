import type { MiddlewareHandler } from "hono";
import { ulid } from "ulidx";
import { loadConfig } from "../env";
import { ServiceError, unavailable } from "../errors";
import type { HonoEnv } from "./honoEnv";
import { runWithRequestId } from "./requestId";

export const INTERNAL_KEY_HEADER = "X-Service-Internal-Key";

export const requestContext: MiddlewareHandler<HonoEnv> = async (c, next) => {
  c.set("requestId", (c.req.header("x-request-id") || c.req.header("cf-ray") || ulid()).slice(0, 128));
  c.set("config", loadConfig(c.env));
  await runWithRequestId(c.get("requestId"), next);
  c.header("x-request-id", c.get("requestId"));
};

const encoder = new TextEncoder();

// Hashing first gives both sides the same length, so timingSafeEqual leaks neither content nor length.
async function constantTimeEqual(a: string, b: string): Promise<boolean> {
  const [da, db] = await Promise.all([
    crypto.subtle.digest("SHA-256", encoder.encode(a)),
    crypto.subtle.digest("SHA-256", encoder.encode(b)),
  ]);
  return crypto.subtle.timingSafeEqual(da, db);
}

export const requireInternalKey: MiddlewareHandler<HonoEnv> = async (c, next) => {
  if (c.req.path === "/health") {
    return next();
  }
  const expected = c.get("config").internalApiKey;
  if (!expected) {
    console.error("[notify] INTERNAL_API_KEY is not set; refusing every authenticated route");
    throw unavailable("service_unconfigured", "The notification service has no internal key configured.");
  }
  const given = c.req.header(INTERNAL_KEY_HEADER) ?? "";
  if (!(await constantTimeEqual(given, expected))) {
    throw new ServiceError(401, "invalid_service_key", `Missing or wrong ${INTERNAL_KEY_HEADER}.`);
  }
  return next();
};

// chanfana replaces a malformed JSON body with {} (so a body of optional fields would pass), so parse a
// clone here first and answer 400/415 before any route runs.
export const jsonBodyGuard: MiddlewareHandler<HonoEnv> = async (c, next) => {
  if (!["POST", "PUT", "PATCH"].includes(c.req.method)) {
    return next();
  }
  const raw = c.req.raw;
  const bytes = await raw.clone().arrayBuffer();
  if (bytes.byteLength === 0) {
    return next();
  }
  const type = raw.headers.get("content-type") ?? "";
  if (!/^application\/(.+\+)?json\b/i.test(type)) {
    throw new ServiceError(415, "unsupported_media_type", "Send the body as application/json.");
  }
  const text = new TextDecoder().decode(bytes);
  try {
    JSON.parse(text);
  } catch {
    throw new ServiceError(400, "malformed_json", "The body is not valid JSON.");
  }
  return next();
};
