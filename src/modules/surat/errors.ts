import { defineIndonesianTitles } from "../../core/i18n";

/** This module's own problem codes: joined into ErrorCode (core/errors.ts) and the list src/app.ts builds. */
export const SURAT_ERROR_CODES = [
  // Letters.
  "person_not_linked",
  "invalid_fields",
  "invalid_number_format",
  "letter_number_required",
  "letter_number_taken",
  "letter_not_ready",
  "note_required",
  // Letters a kelurahan accepts (issue 29, ADR 0030).
  "registry_record_required",
  "letter_settings_incomplete",
  // The RW's acknowledgement before the resident's PDF (issue 45).
  "awaiting_rw_acknowledgement",
] as const;

declare module "../../core/errors" {
  interface ModuleErrorCodes {
    surat: (typeof SURAT_ERROR_CODES)[number];
  }
}

/** The codes above in Indonesian (the catalogue of core/i18n; issue 30 item 3). */
defineIndonesianTitles<(typeof SURAT_ERROR_CODES)[number]>({
  person_not_linked: "Akun Anda belum terhubung ke data warga",
  invalid_fields: "Isian surat tidak valid",
  invalid_number_format: "Format nomor surat tidak valid",
  letter_number_required: "Nomor surat wajib diisi",
  letter_number_taken: "Nomor surat sudah dipakai",
  letter_not_ready: "Surat belum siap",
  note_required: "Catatan wajib diisi",
  registry_record_required: "Data kependudukan wajib ada untuk surat ini",
  letter_settings_incomplete: "Pengaturan surat belum lengkap",
  awaiting_rw_acknowledgement: "Surat sudah selesai dan menunggu persetujuan RW",
});
