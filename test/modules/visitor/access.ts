import { type AccessTable, ADMIN, GATE, pub, R, R_S, S } from "../../helpers/access";

/** Who may call each route of the visitor module, and why (reading rules: test/helpers/access.ts). */
export const ACCESS: AccessTable = {
  // Guest book (spec: R registers and lists their own, S reviews and works the gate; issue 6: the
  // single request and its QR for the owning resident and staff).
  "POST /api/visitor": { who: R, flag: "tamu" },
  "GET /api/visitor/mine": { who: R, flag: "tamu" },
  // Issue 42: what a registration must give; the resident's form reads it, the admin sets it (as the
  // letter settings).
  "GET /api/visitor/settings": { who: R_S, flag: "tamu" },
  "PUT /api/visitor/settings": { who: ADMIN, flag: "tamu" },

  // Issue 27: the guard works the gate and sees today's guests (the verb narrows the list for them).
  "GET /api/visitor": { who: GATE, flag: "tamu" },
  "POST /api/visitor/gate/check-in": { who: GATE, flag: "tamu" },
  "POST /api/visitor/gate/check-out": { who: GATE, flag: "tamu" },
  // Issue 45: the guard registers a walk-in and approves it after calling the host; the host's
  // household answers it from their phone.
  "POST /api/visitor/gate/walk-in": { who: GATE, flag: "tamu" },
  "POST /api/visitor/:id/telepon": { who: GATE, flag: "tamu" },
  "POST /api/visitor/:id/tuan-rumah": { who: R, flag: "tamu" },
  // Issue 45: the guard photographs a walk-in; the gate, staff and the host's household see the photo
  // (the verb narrows a resident to the walk-ins to their house).
  "POST /api/visitor/:id/foto": { who: GATE, flag: "tamu" },
  "GET /api/visitor/:id/foto": { who: [...R_S, "satpam"], flag: "tamu" },
  // Issue 45: regular visitors' cards: the household issues and revokes its own (staff, spec S as for
  // deciding guests, issue one for a house they name and revoke any); the gate lists every card and lets
  // a holder in inside its windows.
  "POST /api/visitor/regular": { who: R_S, flag: "tamu" },
  "GET /api/visitor/regular": { who: [...R_S, "satpam"], flag: "tamu" },
  "POST /api/visitor/regular/:id/cabut": { who: R_S, flag: "tamu" },
  "POST /api/visitor/regular/:id/check-in": { who: GATE, flag: "tamu" },
  "GET /api/visitor/:id": { who: R_S, flag: "tamu" },
  "GET /api/visitor/:id/qr": { who: R_S, flag: "tamu" },
  "PUT /api/visitor/:id": { who: S, flag: "tamu" },
  // Issue 42: the approval email's pass link, forwarded to the guest; the signed pass is its secret.
  "GET /tamu/:pass": pub,
};
