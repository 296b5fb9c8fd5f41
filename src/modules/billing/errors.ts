/** This module's own problem codes: joined into ErrorCode (core/errors.ts) and the list src/app.ts builds. */
export const BILLING_ERROR_CODES = [
  // Subscription billing.
  "plan_not_found",
  "plan_exists",
  "invoice_not_found",
  "invoice_paid",
  "invoice_already_void",
] as const;

declare module "../../core/errors" {
  interface ModuleErrorCodes {
    billing: (typeof BILLING_ERROR_CODES)[number];
  }
}
