/** This module's own problem codes: joined into ErrorCode (core/errors.ts) and the list src/app.ts builds. */
export const ASPIRASI_ERROR_CODES = [
  // Complaints, suggestions and proposals.
  "response_required",
  "own_proposal",
  "already_endorsed",
  "proposal_closed",
] as const;

declare module "../../core/errors" {
  interface ModuleErrorCodes {
    aspirasi: (typeof ASPIRASI_ERROR_CODES)[number];
  }
}
