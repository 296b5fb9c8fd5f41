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
