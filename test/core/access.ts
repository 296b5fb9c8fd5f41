import { type AccessTable, pub, R_S } from "../helpers/access";

/**
 * Who may call each route of core's own modules (uploads and payments), and why (reading rules:
 * test/helpers/access.ts).
 */
export const ACCESS: AccessTable = {
  // Payments and subscription billing (spec: S for the tenant's invoices; issue 15 and the roles table of
  // docs/architecture.md narrow it to the tenant admin, as for support tickets). The gateway calls the
  // callback without a login: its signature or token is the credential.
  "POST /api/payments/gateway/callback": pub,

  // Tenant file store (issue 16): every member reaches both routes; what each may upload or read is
  // decided per purpose in the verbs (proof of payment: its uploader and finance; covers: everyone).
  "POST /api/files": { who: R_S },
  "GET /api/files/:id": { who: R_S },
};
