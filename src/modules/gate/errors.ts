/** This module's own problem codes: joined into ErrorCode (core/errors.ts) and the list src/app.ts builds. */
export const GATE_ERROR_CODES = [
  // Gate hardware events.
  "unsupported_event",
] as const;

declare module "../../core/errors" {
  interface ModuleErrorCodes {
    gate: (typeof GATE_ERROR_CODES)[number];
  }
}
