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
] as const;

declare module "../../core/errors" {
  interface ModuleErrorCodes {
    surat: (typeof SURAT_ERROR_CODES)[number];
  }
}
