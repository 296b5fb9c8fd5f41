/** This module's own problem codes: joined into ErrorCode (core/errors.ts) and the list src/app.ts builds. */
export const KEPENDUDUKAN_ERROR_CODES = [
  // The registry: units, family cards and their people (members, residents, keuangan and surat throw
  // some of them too).
  "unit_exists",
  "unit_not_found",
  "kk_exists",
  "nik_exists",
  "kk_number_taken",
  "nik_taken",
  "plate_taken",
  "invalid_nik",
  "invalid_kk_number",
  "unit_in_use",
  "kk_head_required",
  "household_member_not_found",
  "person_not_found",
] as const;

declare module "../../core/errors" {
  interface ModuleErrorCodes {
    kependudukan: (typeof KEPENDUDUKAN_ERROR_CODES)[number];
  }
}
