import { type AccessTable, R, R_S, S } from "../../helpers/access";

/** Who may call each route of the aspirasi module, and why (reading rules: test/helpers/access.ts). */
export const ACCESS: AccessTable = {
  // Complaints, suggestions, proposals (issue 8: residents send, "(staff)" review; the spec sends
  // complaints "from residents to RT/RW staff").
  "POST /api/pengaduan": { who: R },
  "GET /api/pengaduan/mine": { who: R },
  "GET /api/pengaduan": { who: S },
  "GET /api/pengaduan/:id": { who: R_S },
  "PUT /api/pengaduan/:id": { who: S },
  "POST /api/saran": { who: R },
  "GET /api/saran": { who: S },
  "PUT /api/saran/:id/read": { who: S },
  "POST /api/usulan": { who: R },
  "GET /api/usulan": { who: R_S },
  "GET /api/usulan/:id": { who: R_S },
  "POST /api/usulan/:id/dukung": { who: R },
  "PUT /api/usulan/:id": { who: S },
};
