/**
 * Domain errors know nothing of HTTP: services throw these, and one `onError` (http/problem.ts) maps
 * them to RFC 9457 problem+json. The kinds are closed, and so are the codes: `code` is the stable
 * machine-readable reason clients switch on, and `/openapi.json` lists every one of them (the Problem
 * schema's `code` is this enum), so a client can generate an exhaustive switch. A new reason is a new
 * entry here; a typo at a throw site fails `tsc`. Never rename or drop a code clients may have seen.
 */
export const ERROR_CODES = [
  // Answered by the HTTP layer itself (http/problem.ts, http/middleware.ts) and the constructors' defaults.
  "invalid_input",
  "malformed_json",
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
  // Credentials, sessions and one-time tokens.
  "invalid_token",
  "token_expired",
  "token_invalid",
  "token_used",
  "invalid_credentials",
  "invalid_refresh_token",
  "refresh_token_reused",
  "session_revoked",
  "session_ended",
  "account_disabled",
  "no_membership",
  "invalid_service_key",
  "password_too_short",
  "provider_not_found",
  "provider_unconfigured",
  // Tenancy and access.
  "tenant_not_found",
  "tenant_suspended",
  "tenant_closed",
  "tenant_db_unavailable",
  "feature_disabled",
  "forbidden_role",
  "no_free_slot",
  "slug_taken",
  "invalid_parent",
  "confirm_slug_mismatch",
  // Members and duties (issue 27).
  "last_admin",
  "not_resident",
  "person_taken",
  "person_not_found",
  "person_not_at_unit",
  "person_not_linked",
  "link_request_pending",
  "no_link_request",
  // Gate devices.
  "missing_device_key",
  "invalid_device_key",
  "device_inactive",
  "unsupported_event",
  // Shared request shapes: dates, cursors, uploads.
  "invalid_date",
  "invalid_range",
  "invalid_cursor",
  "not_multipart",
  "invalid_multipart",
  "file_missing",
  "file_empty",
  "file_too_large",
  "unsupported_image_type",
  "invalid_attachment",
  // Every module's state machine.
  "invalid_transition",
  // Identity and residents.
  "profile_incomplete",
  "whatsapp_taken",
  "account_conflict",
  "already_member",
  "no_contact",
  // Kependudukan.
  "unit_exists",
  "unit_not_found",
  "kk_exists",
  "nik_exists",
  "kk_number_taken",
  "nik_taken",
  "plate_taken",
  "invalid_nik",
  "invalid_kk_number",
  "unit_in_use",
  "kk_head_required",
  // Surat.
  "invalid_fields",
  "invalid_number_format",
  "household_member_not_found",
  "letter_number_required",
  "letter_number_taken",
  "letter_not_ready",
  "note_required",
  "pdf_renderer_unavailable",
  // Musyawarah.
  "invalid_schedule",
  "invalid_max_choices",
  "invalid_choice",
  "not_eligible",
  "already_voted",
  "poll_not_open",
  "poll_not_started",
  "poll_ended",
  "poll_closed",
  "poll_has_ballots",
  // Aspirasi.
  "response_required",
  "own_proposal",
  "already_endorsed",
  "proposal_closed",
  // Visitor passes.
  "invalid_window",
  "visit_in_past",
  "visit_too_far",
  "not_approved",
  "invalid_pass",
  "foreign_pass",
  "pass_expired",
  "pass_not_yet_valid",
  "pass_used",
  "already_checked_in",
  "already_checked_out",
  "not_checked_in",
  // Support tickets.
  "ticket_not_found",
  "empty_reply",
  "turnstile_required",
  "turnstile_failed",
  "turnstile_unavailable",
  // Assistant and RW hierarchy (issues 17, 13).
  "assistant_unavailable",
  "not_rw_tenant",
  "not_rt_tenant",
  "invalid_child",
  "already_linked",
  // Payments and subscription billing.
  "subscription_inactive",
  "payment_order_not_found",
  "invalid_signature",
  "invalid_callback",
  "amount_mismatch",
  "payment_gateway_unavailable",
  "payment_gateway_error",
  "plan_not_found",
  "plan_exists",
  "invoice_not_found",
  "invoice_paid",
  "invoice_already_void",
  // Keuangan (dues, cash book, expenses, campaigns).
  "invalid_period",
  "overpayment",
  "bill_paid",
  "already_corrected",
  "not_correctable",
  "payment_already_reversed",
  "online_payment_not_reversible",
  "campaign_closed",
  // Spreadsheets (core/spreadsheet.ts).
  "invalid_spreadsheet",
  // Content, announcements and notifications (push tokens, preferences, fan-out).
  "notification_unavailable",
  "push_token_not_found",
  "unknown_block",
  // Tenant file store, gallery and marketplace (issue 16).
  "image_unreadable",
  "forbidden_purpose",
  "file_not_found",
  "invalid_file_purpose",
  "file_in_use",
  "too_many_photos",
  "album_not_found",
  "listing_not_found",
  "listing_hidden",
  // Tenant archives: export and import (issue 19).
  "archive_not_found",
  "archive_not_ready",
  "archive_expired",
  "archive_invalid",
  "archive_schema_mismatch",
  "archive_checksum_mismatch",
  "tenant_not_empty",
] as const;

export type ErrorCode = (typeof ERROR_CODES)[number];

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
  | "gone";

export interface FieldError {
  field: string;
  message: string;
}

export class DomainError extends Error {
  constructor(
    readonly kind: ErrorKind,
    readonly code: ErrorCode,
    message: string,
    readonly extra: { errors?: FieldError[]; retryAfter?: number } = {},
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
} as const satisfies Record<ErrorKind, number>;

export type StatusOfKind = (typeof statusOfKind)[ErrorKind];
