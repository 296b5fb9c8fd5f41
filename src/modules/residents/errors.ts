import { defineIndonesianTitles } from "../../core/i18n";

/** This module's own problem codes: joined into ErrorCode (core/errors.ts) and the list src/app.ts builds. */
export const RESIDENTS_ERROR_CODES = [
  // Resident applications.
  "person_not_at_unit",
] as const;

declare module "../../core/errors" {
  interface ModuleErrorCodes {
    residents: (typeof RESIDENTS_ERROR_CODES)[number];
  }
}

/** The codes above in Indonesian (the catalogue of core/i18n; issue 30 item 3). */
defineIndonesianTitles<(typeof RESIDENTS_ERROR_CODES)[number]>({
  person_not_at_unit: "Warga ini tidak tinggal di unit tersebut",
});
