import { defineIndonesianTitles } from "../../core/i18n";

/** This module's own problem codes: joined into ErrorCode (core/errors.ts) and the list src/app.ts builds. */
export const KEUANGAN_ERROR_CODES = [
  // Dues, cash book, expenses, campaigns.
  "overpayment",
  "bill_paid",
  "already_corrected",
  "not_correctable",
  "payment_already_reversed",
  "online_payment_not_reversible",
  "campaign_closed",
  // Separation of duties (issue 31 N5, ADR 0028).
  "self_approval",
  "self_confirmation",
] as const;

declare module "../../core/errors" {
  interface ModuleErrorCodes {
    keuangan: (typeof KEUANGAN_ERROR_CODES)[number];
  }
}

/** The codes above in Indonesian (the catalogue of core/i18n; issue 30 item 3). */
defineIndonesianTitles<(typeof KEUANGAN_ERROR_CODES)[number]>({
  overpayment: "Pembayaran melebihi tagihan",
  bill_paid: "Tagihan sudah lunas",
  already_corrected: "Entri ini sudah dikoreksi",
  not_correctable: "Entri ini tidak dapat dikoreksi",
  payment_already_reversed: "Pembayaran sudah dibatalkan",
  online_payment_not_reversible: "Pembayaran daring tidak dapat dibatalkan di sini",
  campaign_closed: "Penggalangan dana sudah ditutup",
  self_approval: "Anda tidak dapat menyetujui pengajuan Anda sendiri",
  self_confirmation: "Anda tidak dapat mengonfirmasi donasi Anda sendiri",
});
