import { type AccessTable, R, R_S, SEK_ADMIN } from "../../helpers/access";

/** Who may call each route of the musyawarah module, and why (reading rules: test/helpers/access.ts). */
export const ACCESS: AccessTable = {
  // Polls: spec R,S list and R vote; issue 5 names sekretaris and admin as the organisers, and its
  // "(staff)" vote list is theirs.
  "GET /api/musyawarah": { who: R_S, flag: "musyawarah" },
  "POST /api/musyawarah": { who: SEK_ADMIN, flag: "musyawarah" },
  "GET /api/musyawarah/:id": { who: R_S, flag: "musyawarah" },
  "PUT /api/musyawarah/:id": { who: SEK_ADMIN, flag: "musyawarah" },
  "DELETE /api/musyawarah/:id": { who: SEK_ADMIN, flag: "musyawarah" },
  "POST /api/musyawarah/:id/vote": { who: R, flag: "musyawarah" },
  "GET /api/musyawarah/:id/votes": { who: SEK_ADMIN, flag: "musyawarah" },
};
