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
