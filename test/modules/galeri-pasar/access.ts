import { type AccessTable, R_S, SEK_ADMIN } from "../../helpers/access";

/**
 * Who may call each route of the galeri and pasar modules, and why (reading rules:
 * test/helpers/access.ts).
 */
export const ACCESS: AccessTable = {
  // Gallery (issue 16: institutional content, written by sekretaris and admin, read by everyone).
  "GET /api/galeri": { who: R_S },
  "POST /api/galeri": { who: SEK_ADMIN },
  "GET /api/galeri/:id": { who: R_S },
  "DELETE /api/galeri/:id": { who: SEK_ADMIN },
  "POST /api/galeri/:id/foto": { who: SEK_ADMIN },
  "DELETE /api/galeri/:id/foto/:photoId": { who: SEK_ADMIN },

  // Marketplace (issue 16, flag pasar): residents trade (staff are residents too; the seller-only rule is
  // the verb's); sekretaris and admin moderate.
  "GET /api/pasar/mine": { who: R_S, flag: "pasar" },
  "GET /api/pasar/listings": { who: R_S, flag: "pasar" },
  "POST /api/pasar/listings": { who: R_S, flag: "pasar" },
  "GET /api/pasar/listings/:id": { who: R_S, flag: "pasar" },
  "PUT /api/pasar/listings/:id": { who: R_S, flag: "pasar" },
  "DELETE /api/pasar/listings/:id": { who: R_S, flag: "pasar" },
  "PUT /api/pasar/listings/:id/moderasi": { who: SEK_ADMIN, flag: "pasar" },
};
