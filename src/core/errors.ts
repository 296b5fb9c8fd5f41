/**
 * Domain errors know nothing of HTTP: services throw these, and one `onError` (http/problem.ts) maps
 * them to RFC 9457 problem+json. The kinds are closed; `code` is the stable machine-readable reason
 * clients switch on (e.g. `slug_taken`, `feature_disabled`).
 */
export type ErrorKind =
  | "invalid"
  | "unauthorized"
  | "forbidden"
  | "not_found"
  | "conflict"
  | "too_large"
  | "unsupported_media"
  | "rate_limited"
  | "unavailable";

export interface FieldError {
  field: string;
  message: string;
}

export class DomainError extends Error {
  constructor(
    readonly kind: ErrorKind,
    readonly code: string,
    message: string,
    readonly extra: { errors?: FieldError[]; retryAfter?: number } = {},
  ) {
    super(message);
    this.name = new.target.name;
  }
}

export class Invalid extends DomainError {
  constructor(code: string, message: string, errors?: FieldError[]) {
    super("invalid", code, message, { errors });
  }
}

export class Unauthorized extends DomainError {
  constructor(code = "unauthorized", message = "Missing or invalid credentials.") {
    super("unauthorized", code, message);
  }
}

export class Forbidden extends DomainError {
  constructor(code = "forbidden", message = "You are not allowed to do this.") {
    super("forbidden", code, message);
  }
}

export class NotFound extends DomainError {
  constructor(what = "Resource", code = "not_found") {
    super("not_found", code, `${what} not found.`);
  }
}

export class Conflict extends DomainError {
  constructor(code: string, message: string) {
    super("conflict", code, message);
  }
}

export class TooLarge extends DomainError {
  constructor(message: string, code = "too_large") {
    super("too_large", code, message);
  }
}

export class UnsupportedMedia extends DomainError {
  constructor(message: string, code = "unsupported_media_type") {
    super("unsupported_media", code, message);
  }
}

export class RateLimited extends DomainError {
  constructor(retryAfter: number, message = "Too many requests; try again later.") {
    super("rate_limited", "rate_limited", message, { retryAfter });
  }
}

export class Unavailable extends DomainError {
  constructor(code: string, message: string) {
    super("unavailable", code, message);
  }
}

export const statusOfKind: Record<ErrorKind, number> = {
  invalid: 400,
  unauthorized: 401,
  forbidden: 403,
  not_found: 404,
  conflict: 409,
  too_large: 413,
  unsupported_media: 415,
  rate_limited: 429,
  unavailable: 503,
};
