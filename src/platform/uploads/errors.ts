import { defineIndonesianTitles } from "../../core/i18n";

/** The file store's own problem codes: joined into ErrorCode (core/errors.ts) by uploadsModule. */
export const UPLOADS_ERROR_CODES = [
  // An image URL that is not one of this community's uploads (images.ts).
  "foreign_image",
] as const;

declare module "../../core/errors" {
  interface ModuleErrorCodes {
    uploads: (typeof UPLOADS_ERROR_CODES)[number];
  }
}

/** The codes above in Indonesian (the catalogue of core/i18n; issue 30 item 3). */
defineIndonesianTitles<(typeof UPLOADS_ERROR_CODES)[number]>({
  foreign_image: "Gambar harus diunggah ke komunitas ini",
});
