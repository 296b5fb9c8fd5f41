import { defineIndonesianTitles } from "../../core/i18n";

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

/** The codes above in Indonesian (the catalogue of core/i18n; issue 30 item 3). */
defineIndonesianTitles<(typeof SUPPORT_ERROR_CODES)[number]>({
  invalid_attachment: "Lampiran tidak valid",
  ticket_not_found: "Tiket tidak ditemukan",
  empty_reply: "Balasan kosong",
  turnstile_required: "Verifikasi anti-robot wajib diisi",
  turnstile_failed: "Verifikasi anti-robot gagal",
  turnstile_unavailable: "Verifikasi anti-robot sedang tidak tersedia",
});
