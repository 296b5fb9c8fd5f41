import { type AccessTable, pub, S, SEK_ADMIN } from "../../helpers/access";

/** Who may call each route of the residents module, and why (reading rules: test/helpers/access.ts). */
export const ACCESS: AccessTable = {
  // Applications and credentials (issue 3, "Staff (sekretaris, admin)", flag warga).
  "POST /api/public/tenants/:slug/applications": pub,
  "GET /api/applications": { who: SEK_ADMIN, flag: "warga" },
  "PUT /api/applications/:id": { who: SEK_ADMIN, flag: "warga" },

  // Reading the residents list is a staff read (the architecture's "bendahara: staff reads"): the
  // treasurer bills every household, so the list is S (settled in issue 11).
  "GET /api/residents": { who: S, flag: "warga" },
  "POST /api/residents/:id/credentials/reset": { who: SEK_ADMIN, flag: "warga" },
};
