import { ApiException, InputValidationException, MultiException } from "chanfana";
import type { Context } from "hono";
import { HTTPException } from "hono/http-exception";
import { ConfigError } from "../env";
import { ServiceError } from "../errors";
import type { HonoEnv } from "./honoEnv";
import { languageOf, problemResponse } from "./problem";

function fieldOf(path: unknown): string {
  if (!Array.isArray(path)) {
    return "";
  }
  // chanfana prefixes the request part (body, query, params); callers think in field names.
  const parts = path.map(String);
  return (["body", "query", "params", "headers"].includes(parts[0] ?? "") ? parts.slice(1) : parts).join(".");
}

function validationErrors(err: ApiException): { field: string; message: string }[] {
  const list = err instanceof MultiException ? err.errors : [err];
  return list.map((e) => ({
    field: e instanceof InputValidationException ? fieldOf((e as { path: unknown }).path) : "",
    message: e.message,
  }));
}

export function handleError(err: Error, c: Context<HonoEnv>): Response {
  const requestId = c.get("requestId");
  const lang = languageOf(c.req.header("Accept-Language"));
  if (err instanceof ServiceError) {
    return problemResponse({
      status: err.status,
      code: err.code,
      detail: err.message,
      lang,
      requestId,
      errors: err.errors,
    });
  }
  if (err instanceof ApiException && err.status === 400) {
    return problemResponse({
      status: 400,
      code: "invalid_input",
      detail: "The request is not valid.",
      lang,
      requestId,
      errors: validationErrors(err),
    });
  }
  if (err instanceof HTTPException && err.status < 500) {
    return problemResponse({
      status: err.status,
      code: err.status === 415 ? "unsupported_media_type" : "invalid_input",
      detail: err.message || "The request could not be processed.",
      lang,
      requestId,
    });
  }
  if (err instanceof ConfigError) {
    console.error(`[notify] configuration error: ${err.message}`);
    return problemResponse({
      status: 500,
      code: "service_unconfigured",
      lang,
      detail: "The notification service configuration is invalid.",
      requestId,
    });
  }
  console.error(`[notify] unhandled error in ${c.req.method} ${c.req.path}:`, err);
  return problemResponse({
    status: 500,
    code: "internal_error",
    detail: "Something went wrong on our side.",
    lang,
    requestId,
  });
}
