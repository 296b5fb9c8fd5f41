import { defineIndonesianTitles } from "../../core/i18n";

/** This module's own problem codes: joined into ErrorCode (core/errors.ts) and the list src/app.ts builds. */
export const ASISTEN_ERROR_CODES = [
  // The assistant (issue 17).
  "assistant_unavailable",
] as const;

declare module "../../core/errors" {
  interface ModuleErrorCodes {
    asisten: (typeof ASISTEN_ERROR_CODES)[number];
  }
}

/** The codes above in Indonesian (the catalogue of core/i18n; issue 30 item 3). */
defineIndonesianTitles<(typeof ASISTEN_ERROR_CODES)[number]>({
  assistant_unavailable: "Asisten sedang tidak tersedia",
});
