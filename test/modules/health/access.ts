import { type AccessTable, pub } from "../../helpers/access";

/** Who may call each route of the health module, and why (reading rules: test/helpers/access.ts). */
export const ACCESS: AccessTable = {
  // Spec: GET /api/health, any.
  "GET /api/health": pub,
};
