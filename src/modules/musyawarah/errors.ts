/** This module's own problem codes: joined into ErrorCode (core/errors.ts) and the list src/app.ts builds. */
export const MUSYAWARAH_ERROR_CODES = [
  // Polls and voting (src/durable/PollTally.ts throws them too).
  "invalid_schedule",
  "invalid_max_choices",
  "invalid_choice",
  "not_eligible",
  "already_voted",
  "poll_not_open",
  "poll_not_started",
  "poll_ended",
  "poll_closed",
  "poll_has_ballots",
] as const;

declare module "../../core/errors" {
  interface ModuleErrorCodes {
    musyawarah: (typeof MUSYAWARAH_ERROR_CODES)[number];
  }
}
