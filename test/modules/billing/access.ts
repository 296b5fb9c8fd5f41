import { type AccessTable, platform, S } from "../../helpers/access";

/** Who may call each route of the billing module, and why (reading rules: test/helpers/access.ts). */
export const ACCESS: AccessTable = {
  // Payments and subscription billing (spec: S for the tenant's invoices; issue 42: every staff duty, so
  // the treasurer too, where issue 15 had narrowed it to the admin). The plans are what an invoice is
  // for. The gateway calls the callback without a login: its signature or token is the credential.
  "POST /api/billing/invoices": { who: S },
  "GET /api/billing/invoices": { who: S },
  "GET /api/billing/plans": { who: S },
  "POST /api/platform/tenants/:id/invoices": platform,
  "GET /api/platform/tenants/:id/invoices": platform,
  "POST /api/platform/tenants/:id/invoices/:invoiceId/void": platform,
  "GET /api/platform/billing/plans": platform,
  "POST /api/platform/billing/plans": platform,
  "GET /api/platform/payments/callbacks": platform,
};
