/**
 * Domain errors know nothing of HTTP: services throw these, and one `onError` (http/problem.ts) maps
 * them to RFC 9457 problem+json. The kinds are closed, and so are the codes: `code` is the stable
 * machine-readable reason clients switch on, and `/openapi.json` lists every one of them (the Problem
 * schema's `code` enum, built in src/app.ts), so a client can generate an exhaustive switch. A typo at a
 * throw site fails `tsc`. Never rename or drop a code clients may have seen.
 *
 * Core's own codes are below: those core throws, and the shared request shapes any module may meet. A
 * code that names one module's rule is declared by that module (src/modules/<module>/errors.ts) and
 * joins `ErrorCode` through `ModuleErrorCodes`; a module may throw another module's code.
 */
export const CORE_ERROR_CODES = [
  // Answered by the HTTP layer itself (http/problem.ts, http/middleware.ts) and the constructors' defaults.
  "invalid_input",
  "malformed_json",
  // A JSON body nested deeper than http/body.ts allows (issue 31, N2).
  "too_deep",
  "unauthorized",
  "forbidden",
  "not_found",
  "route_not_found",
  "method_not_allowed",
  "conflict",
  "payload_too_large",
  "unsupported_media_type",
  "rate_limited",
  "busy",
  "internal_error",
  // Access tokens and the liveness of a sign-in (auth/).
  "invalid_token",
  "token_expired",
  "session_revoked",
  "invalid_service_key",
  // Tenancy and access.
  "tenant_not_found",
  "tenant_suspended",
  "tenant_closed",
  "tenant_db_unavailable",
  "feature_disabled",
  "forbidden_role",
  "no_free_slot",
  "slug_taken",
  "not_rw_tenant",
  // Gate devices, whose key the guard checks.
  "missing_device_key",
  "invalid_device_key",
  "device_inactive",
  // Shared request shapes: dates, time windows, cursors, uploads.
  "invalid_date",
  "invalid_range",
  "invalid_window",
  "invalid_cursor",
  "not_multipart",
  "invalid_multipart",
  "file_missing",
  "file_empty",
  "file_too_large",
  "unsupported_image_type",
  // Every module's state machine.
  "invalid_transition",
  // Letter PDFs (pdf.ts).
  "pdf_renderer_unavailable",
  // Payments (payments/) and the subscription the guard checks.
  "subscription_inactive",
  "payment_order_not_found",
  "invalid_signature",
  "invalid_callback",
  "amount_mismatch",
  "payment_gateway_unavailable",
  "payment_gateway_error",
  // Spreadsheets (spreadsheet.ts).
  "invalid_spreadsheet",
  // A workbook whose parts would inflate past the caps, or that lacks the sheets the import needs (issue 31, N8).
  "spreadsheet_too_large",
  "spreadsheet_sheet_missing",
  // The notification service (notify/).
  "notification_unavailable",
  // The tenant file store (uploads/).
  "image_unreadable",
  "forbidden_purpose",
  "file_not_found",
  "invalid_file_purpose",
  // Idempotency-Key on writes (idempotency/, ADR 0034).
  "idempotency_key_reused",
  "idempotency_in_progress",
  "idempotency_answer_lost",
  // A route whose answer carries credentials keeps none for replay (Endpoint.credentialAnswer, ADR 0034).
  "idempotency_answer_unavailable",
  // A Durable Object or D1 call that failed and was not worth retrying (ADR 0034).
  "dependency_unavailable",
  // An If-Match that no longer names the resource's current version (http/conditional.ts, ADR 0035).
  "precondition_failed",
] as const;

/**
 * Each module's own codes, one entry per module, added by module augmentation in the module's errors.ts
 * and handed at run time to its `defineModule({ errorCodes })`:
 *
 *   export const VISITOR_ERROR_CODES = ["pass_used", …] as const;
 *   declare module "../../core/errors" {
 *     interface ModuleErrorCodes {
 *       visitor: (typeof VISITOR_ERROR_CODES)[number];
 *     }
 *   }
 *
 * src/app.ts joins core's list and the modules' into the one runtime list, and a code some module adds
 * here but gives to no `defineModule` fails the type check of test/core/errors.test.ts.
 */
// biome-ignore lint/suspicious/noEmptyInterface: filled by each module's augmentation.
export interface ModuleErrorCodes {}

export type CoreErrorCode = (typeof CORE_ERROR_CODES)[number];
export type ErrorCode = CoreErrorCode | ModuleErrorCodes[keyof ModuleErrorCodes];

export type ErrorKind =
  | "invalid"
  | "unauthorized"
  | "forbidden"
  | "not_found"
  | "conflict"
  | "too_large"
  | "unsupported_media"
  | "rate_limited"
  | "unavailable"
  | "payment_required"
  | "unprocessable"
  | "gone"
  | "precondition_failed";

export interface FieldError {
  field: string;
  message: string;
}

/** What a problem carries besides its code and message (http/problem.ts writes it into the body). */
export interface ProblemExtra {
  errors?: FieldError[];
  retryAfter?: number;
  /** A state conflict's allowed next states from where the object is now (empty: none, it is final). */
  allowedNext?: readonly string[];
}

export class DomainError extends Error {
  constructor(
    readonly kind: ErrorKind,
    readonly code: ErrorCode,
    message: string,
    readonly extra: ProblemExtra = {},
  ) {
    super(message);
    this.name = new.target.name;
  }
}

export class Invalid extends DomainError {
  constructor(code: ErrorCode, message: string, errors?: FieldError[]) {
    super("invalid", code, message, { errors });
  }
}

export class Unauthorized extends DomainError {
  constructor(code: ErrorCode = "unauthorized", message = "Missing or invalid credentials.") {
    super("unauthorized", code, message);
  }
}

export class Forbidden extends DomainError {
  constructor(code: ErrorCode = "forbidden", message = "You are not allowed to do this.") {
    super("forbidden", code, message);
  }
}

export class NotFound extends DomainError {
  constructor(what = "Resource", code: ErrorCode = "not_found") {
    super("not_found", code, `${what} not found.`);
  }
}

export class Conflict extends DomainError {
  constructor(code: ErrorCode, message: string) {
    super("conflict", code, message);
  }
}

/**
 * 409 `invalid_transition`: a move the object's state does not allow. It names the states the caller
 * may move it to from where it is now (`allowedNext`, in the body and in the detail of either language),
 * so a client can offer those instead of guessing; an empty list says the object is final.
 */
export class InvalidTransition extends DomainError {
  constructor(message: string, allowedNext: readonly string[]) {
    super("conflict", "invalid_transition", message, { allowedNext });
  }
}

export class TooLarge extends DomainError {
  constructor(message: string, code: ErrorCode = "payload_too_large") {
    super("too_large", code, message);
  }
}

export class UnsupportedMedia extends DomainError {
  constructor(message: string, code: ErrorCode = "unsupported_media_type") {
    super("unsupported_media", code, message);
  }
}

export class RateLimited extends DomainError {
  constructor(retryAfter: number, message = "Too many requests; try again later.") {
    super("rate_limited", "rate_limited", message, { retryAfter });
  }
}

export class Unavailable extends DomainError {
  constructor(code: ErrorCode, message: string) {
    super("unavailable", code, message);
  }
}

/** Well-formed input whose content cannot be used (an archive whose checksums or schema do not match). */
export class Unprocessable extends DomainError {
  constructor(code: ErrorCode, message: string, errors?: FieldError[]) {
    super("unprocessable", code, message, { errors });
  }
}

/** Something that existed and is gone for good (an expired download). */
export class Gone extends DomainError {
  constructor(code: ErrorCode, message: string) {
    super("gone", code, message);
  }
}

/** A tenant whose subscription has lapsed past its grace period: reads still work, writes answer 402. */
export class PaymentRequired extends DomainError {
  constructor(code: ErrorCode, message: string) {
    super("payment_required", code, message);
  }
}

/** A write whose If-Match names a version the resource has moved past (http/conditional.ts): 412. */
export class PreconditionFailed extends DomainError {
  constructor(message = "The resource changed since you read it; read it again and reapply your change.") {
    super("precondition_failed", "precondition_failed", message);
  }
}

/** The one kind → status map: problem+json (http/problem.ts) and the HTML pages both answer with it. */
export const statusOfKind = {
  invalid: 400,
  unauthorized: 401,
  forbidden: 403,
  not_found: 404,
  conflict: 409,
  too_large: 413,
  unsupported_media: 415,
  rate_limited: 429,
  unavailable: 503,
  payment_required: 402,
  unprocessable: 422,
  gone: 410,
  precondition_failed: 412,
} as const satisfies Record<ErrorKind, number>;

export type StatusOfKind = (typeof statusOfKind)[ErrorKind];
