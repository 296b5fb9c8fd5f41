import type { CoreErrorCode } from "../../../src/core/errors";

// Domain errors know nothing of HTTP beyond a status hint; http/errorHandler.ts turns them into problem+json.

/**
 * The notification service's closed set of problem codes (a separate Worker, so not the API's list), in
 * the API's vocabulary (issue 42 item 5): a refusal the API also makes has the API's code (`invalid_input`,
 * `malformed_json`, `invalid_service_key`, …, checked against the API's CoreErrorCode by tsc below), and
 * the same titles in both languages (http/problem.ts). The Problem schema's `code` is this enum.
 */
export const SHARED_ERROR_CODES = [
  "invalid_input",
  "malformed_json",
  "unsupported_media_type",
  "invalid_service_key",
  "route_not_found",
  "idempotency_key_reused",
  "dependency_unavailable",
  "internal_error",
] as const satisfies readonly CoreErrorCode[];

/** The codes only this service answers, with their Indonesian titles in http/problem.ts. */
export const OWN_ERROR_CODES = [
  "template_not_found",
  "message_not_found",
  "device_not_found",
  "missing_template_variables",
  "message_not_dead",
  "channel_unconfigured",
  "service_unconfigured",
] as const;

export const NOTIFY_ERROR_CODES = [...SHARED_ERROR_CODES, ...OWN_ERROR_CODES] as const;

export type ErrorCode = (typeof NOTIFY_ERROR_CODES)[number];

export interface FieldError {
  field: string;
  message: string;
}

/** A refusal with its status and code; the title comes from both (http/problem.ts), in the caller's language. */
export class ServiceError extends Error {
  override name = "ServiceError";
  constructor(
    readonly status: 400 | 401 | 404 | 409 | 415 | 422 | 500 | 503,
    readonly code: ErrorCode,
    message: string,
    readonly errors?: FieldError[],
  ) {
    super(message);
  }
}

export const invalid = (code: ErrorCode, detail: string, errors?: FieldError[]) =>
  new ServiceError(400, code, detail, errors);

export const notFound = (code: ErrorCode, detail: string) => new ServiceError(404, code, detail);

export const conflict = (code: ErrorCode, detail: string) => new ServiceError(409, code, detail);

/** The same key with another request: 422, as the API answers it (ADR 0034). */
export const keyReused = (detail: string) => new ServiceError(422, "idempotency_key_reused", detail);

export const unavailable = (code: ErrorCode, detail: string) => new ServiceError(503, code, detail);
