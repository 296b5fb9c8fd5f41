import { type AccessTable, ADMIN, platform } from "../../helpers/access";

/** Who may call each route of the platform-ops module, and why (reading rules: test/helpers/access.ts). */
export const ACCESS: AccessTable = {
  // Operability (issue 19): the operator's deep health view.
  "GET /api/platform/health": platform,
  "POST /api/platform/tenants/:id/erasures": platform,
  "GET /api/platform/tenants/:id/erasures": platform,
  // Issue 47 item 4: the notification service's delivery log and retry, for operators only.
  "GET /api/platform/notifications/messages": platform,
  "GET /api/platform/notifications/messages/:id": platform,
  "POST /api/platform/notifications/messages/:id/retry": platform,

  // Tenant archives (issue 19: "tenant admin, and operator"): the community's head exports its data,
  // with no feature flag (like the other admin routes of non-feature modules); operators export any
  // tenant and alone import.
  "POST /api/archives": { who: ADMIN },
  "GET /api/archives": { who: ADMIN },
  "GET /api/archives/:id": { who: ADMIN },
  "GET /api/archives/:id/download": { who: ADMIN },
  "POST /api/platform/tenants/:id/archives": platform,
  "GET /api/platform/tenants/:id/archives": platform,
  "POST /api/platform/tenants/:id/imports": platform,
  "GET /api/platform/archives/:id": platform,
  "GET /api/platform/archives/:id/download": platform,
};
