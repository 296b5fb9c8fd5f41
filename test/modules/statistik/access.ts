import { type AccessTable, S } from "../../helpers/access";

/** Who may call each route of the statistik module, and why (reading rules: test/helpers/access.ts). */
export const ACCESS: AccessTable = {
  // Dashboard (spec: S).
  "GET /api/statistik/operasional": { who: S },
};
