import { defineIndonesianTitles } from "../../core/i18n";

/** This module's own problem codes: joined into ErrorCode (core/errors.ts) and the list src/app.ts builds. */
export const PLATFORM_OPS_ERROR_CODES = [
  // Tenant archives: export and import (issue 19; closing a tenant throws archive_not_ready too).
  "archive_not_found",
  "archive_not_ready",
  "archive_expired",
  "archive_invalid",
  "archive_schema_mismatch",
  "archive_checksum_mismatch",
  // The archive's manifest does not carry this platform's signature (issue 31, N7).
  "archive_signature_invalid",
  "tenant_not_empty",
  // The notification service's delivery log, as operators see it (issue 47 item 4).
  "message_not_found",
  "message_not_retryable",
] as const;

declare module "../../core/errors" {
  interface ModuleErrorCodes {
    "platform-ops": (typeof PLATFORM_OPS_ERROR_CODES)[number];
  }
}

/** The codes above in Indonesian (the catalogue of core/i18n; issue 30 item 3). */
defineIndonesianTitles<(typeof PLATFORM_OPS_ERROR_CODES)[number]>({
  archive_not_found: "Arsip tidak ditemukan",
  archive_not_ready: "Arsip belum siap",
  archive_expired: "Arsip sudah kedaluwarsa",
  archive_invalid: "Arsip tidak valid",
  archive_schema_mismatch: "Skema arsip tidak cocok",
  archive_checksum_mismatch: "Checksum arsip tidak cocok",
  archive_signature_invalid: "Tanda tangan arsip tidak sah",
  tenant_not_empty: "Komunitas tujuan tidak kosong",
  message_not_found: "Pesan notifikasi tidak ditemukan",
  message_not_retryable: "Hanya pesan yang gagal atau diparkir yang dapat dikirim ulang",
});
