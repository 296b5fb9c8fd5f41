import { type AccessTable, pub, R, R_S, S, SEK_ADMIN } from "../../helpers/access";

/** Who may call each route of the surat module, and why (reading rules: test/helpers/access.ts). */
export const ACCESS: AccessTable = {
  // Letters (spec R,S types and PDF, R requests, S console). Issue 42: S is every staff duty, so issue 8's
  // narrowing to sekretaris and admin is gone. Numbering settings are not in the spec nor the issue: read
  // by the letter staff, changed by the secretary or the admin (issue 45: the secretary runs the desk).
  "GET /api/surat/jenis": { who: R_S, flag: "surat" },
  "POST /api/surat": { who: R, flag: "surat" },
  "GET /api/surat/mine": { who: R, flag: "surat" },
  "GET /api/surat": { who: S, flag: "surat" },
  "GET /api/surat/next-number": { who: S, flag: "surat" },
  "GET /api/surat/settings": { who: S, flag: "surat" },
  "PUT /api/surat/settings": { who: SEK_ADMIN, flag: "surat" },
  // Issue 29: the RW's acknowledgement is for "RW admin and sekretaris"; an RT's staff pass the guard and
  // are refused by the verb (403 not_rw_tenant on the queue, 404 for a letter id).
  "GET /api/surat/rw-acknowledgements": { who: SEK_ADMIN, flag: "surat" },
  "POST /api/surat/rw-acknowledgements/:letterId": { who: SEK_ADMIN, flag: "surat" },
  "POST /api/surat/rw-acknowledgements/:letterId/decline": { who: SEK_ADMIN, flag: "surat" },
  "GET /api/surat/:id": { who: R_S, flag: "surat" },
  "PUT /api/surat/:id": { who: S, flag: "surat" },
  // Issue 45: the RT issues a letter without the RW's acknowledgement, a staff decision like finishing.
  "POST /api/surat/:id/issue-without-rw": { who: S, flag: "surat" },
  "POST /api/surat/:id/resubmit": { who: R, flag: "surat" },
  "POST /api/surat/:id/cancel": { who: R, flag: "surat" },
  "GET /api/surat/:id/pdf": { who: R_S, flag: "surat" },
  "GET /verify/surat/:code": pub,
};
