/** This module's own problem codes: joined into ErrorCode (core/errors.ts) and the list src/app.ts builds. */
export const IDENTITY_ERROR_CODES = [
  // Credentials, sessions and one-time tokens.
  "token_invalid",
  "token_used",
  "invalid_credentials",
  "invalid_refresh_token",
  "refresh_token_reused",
  "session_ended",
  "account_disabled",
  "no_membership",
  "password_too_short",
  "provider_not_found",
  "provider_unconfigured",
  // Memberships and duties (issue 27; members' routes and residents' applications throw them too).
  "last_admin",
  "not_resident",
  "person_taken",
  // Accounts and profiles (residents, members, musyawarah, keuangan and pasar throw some of them too).
  "profile_incomplete",
  "whatsapp_taken",
  "account_conflict",
  "already_member",
  "no_contact",
  // Device push tokens.
  "push_token_not_found",
] as const;

declare module "../../core/errors" {
  interface ModuleErrorCodes {
    identity: (typeof IDENTITY_ERROR_CODES)[number];
  }
}
