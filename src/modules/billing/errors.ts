import { defineIndonesianTitles } from "../../core/i18n";

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

/** The codes above in Indonesian (the catalogue of core/i18n; issue 30 item 3). */
defineIndonesianTitles<(typeof BILLING_ERROR_CODES)[number]>({
  plan_not_found: "Paket langganan tidak ditemukan",
  plan_exists: "Paket langganan sudah ada",
  invoice_not_found: "Tagihan tidak ditemukan",
  invoice_paid: "Tagihan sudah dibayar",
  invoice_already_void: "Tagihan sudah dibatalkan",
});
