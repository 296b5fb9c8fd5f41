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
