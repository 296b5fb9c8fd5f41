import { type AccessTable, R, R_S, SEK_ADMIN } from "../../helpers/access";

/** Who may call each route of the asisten module, and why (reading rules: test/helpers/access.ts). */
export const ACCESS: AccessTable = {
  // The assistant (spec: R; issue 17). No flag: the spec names none for it. The rules and agenda text
  // its info_rt tool reads is written by the secretariat and readable by every member.
  "GET /api/ai/status": { who: R },
  "POST /api/ai/chat": { who: R },
  "GET /api/ai/info-rt": { who: R_S },
  "PUT /api/ai/info-rt": { who: SEK_ADMIN },
};
