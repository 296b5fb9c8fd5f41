import { defineIndonesianTitles } from "../../core/i18n";

/** This module's own problem codes: joined into ErrorCode (core/errors.ts) and the list src/app.ts builds. */
export const TENANTS_ERROR_CODES = [
  // Operators' tenant management (the RW hierarchy throws invalid_parent too).
  "invalid_parent",
  "confirm_slug_mismatch",
] as const;

declare module "../../core/errors" {
  interface ModuleErrorCodes {
    tenants: (typeof TENANTS_ERROR_CODES)[number];
  }
}

/** The codes above in Indonesian (the catalogue of core/i18n; issue 30 item 3). */
defineIndonesianTitles<(typeof TENANTS_ERROR_CODES)[number]>({
  invalid_parent: "RW induk tidak valid",
  confirm_slug_mismatch: "Konfirmasi nama alamat komunitas tidak cocok",
});
