/** This module's own problem codes: joined into ErrorCode (core/errors.ts) and the list src/app.ts builds. */
export const HIERARCHY_ERROR_CODES = [
  // RW links and their consent (issues 13, 27).
  "link_request_pending",
  "no_link_request",
  "not_rt_tenant",
  "invalid_child",
  "already_linked",
] as const;

declare module "../../core/errors" {
  interface ModuleErrorCodes {
    hierarchy: (typeof HIERARCHY_ERROR_CODES)[number];
  }
}
