import { defineIndonesianTitles } from "../../core/i18n";

/** This module's own problem codes: joined into ErrorCode (core/errors.ts) and the list src/app.ts builds. */
export const PASAR_ERROR_CODES = [
  // Marketplace (issue 16).
  "file_in_use",
  "listing_not_found",
  "listing_hidden",
] as const;

declare module "../../core/errors" {
  interface ModuleErrorCodes {
    pasar: (typeof PASAR_ERROR_CODES)[number];
  }
}

/** The codes above in Indonesian (the catalogue of core/i18n; issue 30 item 3). */
defineIndonesianTitles<(typeof PASAR_ERROR_CODES)[number]>({
  file_in_use: "Berkas masih dipakai",
  listing_not_found: "Iklan tidak ditemukan",
  listing_hidden: "Iklan sedang disembunyikan",
});
