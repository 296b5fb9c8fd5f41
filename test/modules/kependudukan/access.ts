import { type AccessTable, R, SEK_ADMIN } from "../../helpers/access";

/** Who may call each route of the kependudukan module, and why (reading rules: test/helpers/access.ts). */
export const ACCESS: AccessTable = {
  // Registry: spec "GET /api/kependudukan/* | S", narrowed by "opened by secretary and admin roles";
  // the writes are the registry's too. The household view is issue 8's (a resident requests a letter
  // for a household member), a resident's own masked view rather than a registry read.
  "GET /api/kependudukan/units": { who: SEK_ADMIN, flag: "warga" },
  "GET /api/kependudukan/units/:id": { who: SEK_ADMIN, flag: "warga" },
  "POST /api/kependudukan/units": { who: SEK_ADMIN, flag: "warga" },
  "GET /api/kependudukan/household": { who: R, flag: "warga" },
  "GET /api/kependudukan/kk": { who: SEK_ADMIN, flag: "warga" },
  "POST /api/kependudukan/kk": { who: SEK_ADMIN, flag: "warga" },
  "GET /api/kependudukan/kk/:id": { who: SEK_ADMIN, flag: "warga" },
  "POST /api/kependudukan/kk/:id/members": { who: SEK_ADMIN, flag: "warga" },

  // Issue 13: the rest of the registry is the secretary's and the admin's; the resident proposes
  // corrections to their own household and sees their own proposals.
  "PUT /api/kependudukan/units/:id": { who: SEK_ADMIN, flag: "warga" },
  "DELETE /api/kependudukan/units/:id": { who: SEK_ADMIN, flag: "warga" },
  "PUT /api/kependudukan/kk/:id": { who: SEK_ADMIN, flag: "warga" },
  "DELETE /api/kependudukan/kk/:id": { who: SEK_ADMIN, flag: "warga" },
  "PUT /api/kependudukan/kk/:id/members/:memberId": { who: SEK_ADMIN, flag: "warga" },
  "DELETE /api/kependudukan/kk/:id/members/:memberId": { who: SEK_ADMIN, flag: "warga" },
  "POST /api/kependudukan/kk/:id/vehicles": { who: SEK_ADMIN, flag: "warga" },
  "PUT /api/kependudukan/kk/:id/vehicles/:vehicleId": { who: SEK_ADMIN, flag: "warga" },
  "DELETE /api/kependudukan/kk/:id/vehicles/:vehicleId": { who: SEK_ADMIN, flag: "warga" },
  "GET /api/kependudukan/statistik": { who: SEK_ADMIN, flag: "warga" },
  "GET /api/kependudukan/export": { who: SEK_ADMIN, flag: "warga" },
  "POST /api/kependudukan/import": { who: SEK_ADMIN, flag: "warga" },
  "GET /api/kependudukan/mutasi": { who: SEK_ADMIN, flag: "warga" },
  "POST /api/kependudukan/mutasi": { who: SEK_ADMIN, flag: "warga" },
  "GET /api/kependudukan/household/corrections": { who: R, flag: "warga" },
  "POST /api/kependudukan/household/corrections": { who: R, flag: "warga" },
  // Issue 49: the report of vehicles registered under two spellings of one plate is the registry's,
  // read by the secretary who resolves it.
  "GET /api/kependudukan/vehicles/duplicates": { who: SEK_ADMIN, flag: "warga" },
  "GET /api/kependudukan/corrections": { who: SEK_ADMIN, flag: "warga" },
  "PUT /api/kependudukan/corrections/:id": { who: SEK_ADMIN, flag: "warga" },
};
