import { type AccessTable, platform, pub, S, user } from "../../helpers/access";

/** Who may call each route of the support module, and why (reading rules: test/helpers/access.ts). */
export const ACCESS: AccessTable = {
  // Support tickets (spec: S on every tenant-side ticket row and the evidence upload; issue 42: every staff
  // duty, where issue 7 had said "the admin of a tenant"). Files are served to whoever may see their
  // ticket, decided per file.
  "POST /api/uploads/resident-image": { who: S },
  "POST /api/support-tickets": { who: S },
  "GET /api/support-tickets": { who: S },
  // Issue 42: the closed list of categories a ticket is opened with, for any console's picker.
  "GET /api/support-tickets/categories": pub,
  "GET /api/support-tickets/:id": { who: S },
  "POST /api/support-tickets/:id/messages": { who: S },
  "GET /api/support-files/:id": user,
  "POST /api/platform/uploads/support-image": platform,
  "GET /api/platform/support-tickets": platform,
  "GET /api/platform/support-tickets/:id": platform,
  "PATCH /api/platform/support-tickets/:id": platform,
  "GET /api/public/support-tickets/:reply_token": pub,
  "POST /api/public/support-tickets/:reply_token/messages": pub,
  "POST /api/public/support-tickets/:reply_token/uploads": pub,
  "GET /api/public/support-tickets/:reply_token/files/:id": pub,
  "POST /api/public/contact": pub,
  "GET /support/reply/:reply_token": pub,
  "POST /support/reply/:reply_token": pub,

  // The ticket-mail Worker's inbound replies (spec: "passes the reply to the platform's internal API").
  "POST /internal/support-tickets/replies": { who: "service" },
};
