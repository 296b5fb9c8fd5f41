import { type AccessTable, ADMIN, platform } from "../../helpers/access";

/** Who may call each route of the audit module, and why (reading rules: test/helpers/access.ts). */
export const ACCESS: AccessTable = {
  // Audit reads (issue 3): the tenant's admin, and operators.
  "GET /api/audit": { who: ADMIN },
  "GET /api/platform/audit": platform,
};
