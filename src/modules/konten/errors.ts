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
