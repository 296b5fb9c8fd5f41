/** This module's own problem codes: joined into ErrorCode (core/errors.ts) and the list src/app.ts builds. */
export const PLATFORM_OPS_ERROR_CODES = [
  // Tenant archives: export and import (issue 19; closing a tenant throws archive_not_ready too).
  "archive_not_found",
  "archive_not_ready",
  "archive_expired",
  "archive_invalid",
  "archive_schema_mismatch",
  "archive_checksum_mismatch",
  "tenant_not_empty",
] as const;

declare module "../../core/errors" {
  interface ModuleErrorCodes {
    "platform-ops": (typeof PLATFORM_OPS_ERROR_CODES)[number];
  }
}
