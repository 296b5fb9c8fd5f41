import { type AccessTable, ADMIN, platform } from "../../helpers/access";

/** Who may call each route of the billing module, and why (reading rules: test/helpers/access.ts). */
export const ACCESS: AccessTable = {
  // Payments and subscription billing (spec: S for the tenant's invoices; issue 15 and the roles table of
  // docs/architecture.md narrow it to the tenant admin, as for support tickets). The gateway calls the
  // callback without a login: its signature or token is the credential.
  "POST /api/billing/invoices": { who: ADMIN },
  "GET /api/billing/invoices": { who: ADMIN },
  "GET /api/billing/plans": { who: ADMIN },
  "POST /api/platform/tenants/:id/invoices": platform,
  "GET /api/platform/tenants/:id/invoices": platform,
  "POST /api/platform/tenants/:id/invoices/:invoiceId/void": platform,
  "GET /api/platform/billing/plans": platform,
  "POST /api/platform/billing/plans": platform,
  "GET /api/platform/payments/callbacks": platform,
};
