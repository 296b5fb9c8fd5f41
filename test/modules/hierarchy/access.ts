import { type AccessTable, ADMIN } from "../../helpers/access";

/** Who may call each route of the hierarchy module, and why (reading rules: test/helpers/access.ts). */
export const ACCESS: AccessTable = {
  // RW hierarchy (spec: RW = the RW head, the admin of an RW tenant; issue 13). No flag.
  "GET /api/tenant-hierarchy/children": { who: ADMIN },
  "GET /api/tenant-hierarchy/summary": { who: ADMIN },
  "POST /api/tenant-hierarchy/link-child": { who: ADMIN },
  "DELETE /api/tenant-hierarchy/link-child/:slug": { who: ADMIN },

  // Issue 27: "the RT's admin sees it at GET /api/tenant-hierarchy/parent-request and answers".
  "GET /api/tenant-hierarchy/parent-request": { who: ADMIN },
  "POST /api/tenant-hierarchy/parent-request/accept": { who: ADMIN },
  "POST /api/tenant-hierarchy/parent-request/decline": { who: ADMIN },
};
