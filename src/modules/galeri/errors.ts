import { defineIndonesianTitles } from "../../core/i18n";

/** This module's own problem codes: joined into ErrorCode (core/errors.ts) and the list src/app.ts builds. */
export const GALERI_ERROR_CODES = [
  // Gallery (issue 16).
  "too_many_photos",
  "album_not_found",
] as const;

declare module "../../core/errors" {
  interface ModuleErrorCodes {
    galeri: (typeof GALERI_ERROR_CODES)[number];
  }
}

/** The codes above in Indonesian (the catalogue of core/i18n; issue 30 item 3). */
defineIndonesianTitles<(typeof GALERI_ERROR_CODES)[number]>({
  too_many_photos: "Terlalu banyak foto",
  album_not_found: "Album tidak ditemukan",
});
