// Domain errors know nothing of HTTP beyond a status hint; http/errorHandler.ts turns them into problem+json.

/**
 * The notification service's own closed set of problem codes (a separate Worker, so not the API's list).
 * The Problem schema's `code` is this enum, so /openapi.json lists them; a typo at a throw site fails tsc.
 */
export const NOTIFY_ERROR_CODES = [
  "validation_failed",
  "invalid_json",
  "unsupported_media_type",
  "unauthorized",
  "not_found",
  "template_not_found",
  "message_not_found",
  "device_not_found",
  "missing_template_variables",
  "idempotency_conflict",
  "message_not_dead",
  "channel_unconfigured",
  "queue_unavailable",
  "service_unconfigured",
  "internal_error",
] as const;

export type ErrorCode = (typeof NOTIFY_ERROR_CODES)[number];

export interface FieldError {
  field: string;
  message: string;
}

export class ServiceError extends Error {
  override name = "ServiceError";
  constructor(
    readonly status: 400 | 401 | 404 | 409 | 415 | 500 | 503,
    readonly code: ErrorCode,
    readonly title: string,
    message: string,
    readonly errors?: FieldError[],
  ) {
    super(message);
  }
}

export const invalid = (code: ErrorCode, detail: string, errors?: FieldError[]) =>
  new ServiceError(400, code, "Invalid request", detail, errors);

export const notFound = (code: ErrorCode, detail: string) => new ServiceError(404, code, "Not found", detail);

export const conflict = (code: ErrorCode, detail: string) => new ServiceError(409, code, "Conflict", detail);

export const unavailable = (code: ErrorCode, detail: string) =>
  new ServiceError(503, code, "Service unavailable", detail);
