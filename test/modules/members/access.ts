import { type AccessTable, ADMIN, S, SEK_ADMIN } from "../../helpers/access";

/** Who may call each route of the members module, and why (reading rules: test/helpers/access.ts). */
export const ACCESS: AccessTable = {
  // Members and duties (issue 27): "Committee routes (admin)": appointing, inviting and removing are the
  // admin's; the list is for staff ("contact masked for non-admins if staff may read it"); linking an
  // account to its registry person is "by sekretaris/admin" (item 4). No feature flag.
  "GET /api/members": { who: S },
  // One member, as the list shows them: what a client reads before changing them with If-Match.
  "GET /api/members/:userId": { who: S },
  "POST /api/members/invitations": { who: ADMIN },
  // Issue 44: pending invitations are the admin's, as sending them is (who, duties, sender, expiry).
  "GET /api/members/invitations": { who: ADMIN },
  "DELETE /api/members/invitations/:id": { who: ADMIN },
  // Issue 45: a contact added to an invitation is where the next link goes: the admin's, as inviting is.
  "PUT /api/members/invitations/:id/contact": { who: ADMIN },
  // Issue 45: a one-time sign-in code is a credential for the member's account, so it is the admin's, as
  // invitations are (ADR 0044).
  "POST /api/members/:userId/sign-in-code": { who: ADMIN },
  "PUT /api/members/:userId/roles": { who: ADMIN },
  "DELETE /api/members/:userId": { who: ADMIN },
  "PUT /api/members/:userId/person": { who: SEK_ADMIN },
  // Issue 44: a house is granted by the secretariat (the registry's keepers), never claimed.
  "PUT /api/members/:userId/unit": { who: SEK_ADMIN },
};
