/** This module's own problem codes: joined into ErrorCode (core/errors.ts) and the list src/app.ts builds. */
export const KEUANGAN_ERROR_CODES = [
  // Dues, cash book, expenses, campaigns.
  "invalid_period",
  "overpayment",
  "bill_paid",
  "already_corrected",
  "not_correctable",
  "payment_already_reversed",
  "online_payment_not_reversible",
  "campaign_closed",
] as const;

declare module "../../core/errors" {
  interface ModuleErrorCodes {
    keuangan: (typeof KEUANGAN_ERROR_CODES)[number];
  }
}
