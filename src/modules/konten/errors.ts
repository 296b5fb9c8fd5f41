import { defineIndonesianTitles } from "../../core/i18n";

/** This module's own problem codes: joined into ErrorCode (core/errors.ts) and the list src/app.ts builds. */
export const KONTEN_ERROR_CODES = [
  // Announcements' fan-out.
  "unknown_block",
] as const;

declare module "../../core/errors" {
  interface ModuleErrorCodes {
    konten: (typeof KONTEN_ERROR_CODES)[number];
  }
}

/** The codes above in Indonesian (the catalogue of core/i18n; issue 30 item 3). */
defineIndonesianTitles<(typeof KONTEN_ERROR_CODES)[number]>({
  unknown_block: "Jenis blok konten tidak dikenal",
});
