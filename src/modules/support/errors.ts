/** This module's own problem codes: joined into ErrorCode (core/errors.ts) and the list src/app.ts builds. */
export const SUPPORT_ERROR_CODES = [
  // Support tickets.
  "invalid_attachment",
  "ticket_not_found",
  "empty_reply",
  "turnstile_required",
  "turnstile_failed",
  "turnstile_unavailable",
] as const;

declare module "../../core/errors" {
  interface ModuleErrorCodes {
    support: (typeof SUPPORT_ERROR_CODES)[number];
  }
}
