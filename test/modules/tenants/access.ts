import { type AccessTable, ADMIN, platform } from "../../helpers/access";

/** Who may call each route of the tenants module, and why (reading rules: test/helpers/access.ts). */
export const ACCESS: AccessTable = {
  // Operator tenant management (issue 2; /api/platform/* is super_admin only).
  "POST /api/platform/tenants": platform,
  "GET /api/platform/tenants": platform,
  "PATCH /api/platform/tenants/:id": platform,

  // Issue 27: the operator closes a community and invites its admins.
  "DELETE /api/platform/tenants/:id": platform,

  // Issue 47: one community's page in the operator's console.
  "GET /api/platform/tenants/:id": platform,
  "POST /api/platform/tenants/:id/admin-invitations": platform,

  // Issue 46: the community's admin reads its own feature flags (the console's settings). No flag.
  "GET /api/tenant/features": { who: ADMIN },
};
