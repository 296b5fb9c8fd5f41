/** This module's own problem codes: joined into ErrorCode (core/errors.ts) and the list src/app.ts builds. */
export const VISITOR_ERROR_CODES = [
  // Visitor passes.
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
] as const;

declare module "../../core/errors" {
  interface ModuleErrorCodes {
    visitor: (typeof VISITOR_ERROR_CODES)[number];
  }
}
