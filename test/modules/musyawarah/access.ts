import { type AccessTable, R, R_S, S } from "../../helpers/access";

/** Who may call each route of the musyawarah module, and why (reading rules: test/helpers/access.ts). */
export const ACCESS: AccessTable = {
  // Polls: spec R,S list, S creates, updates and deletes, R votes. Issue 42: S is every staff duty (issue
  // 5's narrowing to sekretaris and admin is gone); the "(staff)" vote list is the organisers'.
  "GET /api/musyawarah": { who: R_S, flag: "musyawarah" },
  "POST /api/musyawarah": { who: S, flag: "musyawarah" },
  "GET /api/musyawarah/:id": { who: R_S, flag: "musyawarah" },
  "PUT /api/musyawarah/:id": { who: S, flag: "musyawarah" },
  "DELETE /api/musyawarah/:id": { who: S, flag: "musyawarah" },
  "POST /api/musyawarah/:id/vote": { who: R, flag: "musyawarah" },
  "GET /api/musyawarah/:id/votes": { who: S, flag: "musyawarah" },
};
