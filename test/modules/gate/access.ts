import { type AccessTable, ADMIN } from "../../helpers/access";

/** Who may call each route of the gate module, and why (reading rules: test/helpers/access.ts). */
export const ACCESS: AccessTable = {
  // Gate devices (issue 6: admin) and the webhook, authorised by the device's own key (spec; the
  // platform-kit design moves it into the guard as `{ scope: "device", flag: "tamu" }`).
  "GET /api/gate-devices": { who: ADMIN, flag: "tamu" },
  "POST /api/gate-devices": { who: ADMIN, flag: "tamu" },
  "POST /api/gate-devices/:id/deactivate": { who: ADMIN, flag: "tamu" },
  "POST /api/gate-devices/:id/activate": { who: ADMIN, flag: "tamu" },
  "DELETE /api/gate-devices/:id": { who: ADMIN, flag: "tamu" },
  "GET /api/gate-devices/:id/events": { who: ADMIN, flag: "tamu" },
  "POST /api/gate-hardware/webhook": { who: "device", flag: "tamu" },
};
