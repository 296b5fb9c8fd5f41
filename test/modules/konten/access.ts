import { type AccessTable, R_S, SEK_ADMIN } from "../../helpers/access";

/** Who may call each route of the konten module, and why (reading rules: test/helpers/access.ts). */
export const ACCESS: AccessTable = {
  // Content and notifications (issue 16): everyone in the tenant reads, the secretariat writes; each
  // user manages their own devices and preferences.
  "GET /api/berita": { who: R_S },
  "POST /api/berita": { who: SEK_ADMIN },
  "GET /api/berita/:id": { who: R_S },
  "PUT /api/berita/:id": { who: SEK_ADMIN },
  "DELETE /api/berita/:id": { who: SEK_ADMIN },
  "GET /api/pengumuman": { who: R_S },
  "POST /api/pengumuman": { who: SEK_ADMIN },
  "GET /api/pengumuman/:id": { who: R_S },
  "PUT /api/pengumuman/:id": { who: SEK_ADMIN },
  "DELETE /api/pengumuman/:id": { who: SEK_ADMIN },
  "GET /api/pengumuman/:id/pengiriman": { who: SEK_ADMIN },
  "GET /api/agenda": { who: R_S },
  "POST /api/agenda": { who: SEK_ADMIN },
  "GET /api/agenda/:id": { who: R_S },
  "PUT /api/agenda/:id": { who: SEK_ADMIN },
  "DELETE /api/agenda/:id": { who: SEK_ADMIN },
  "GET /api/watch/summary": { who: R_S },
};
