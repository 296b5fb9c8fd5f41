import { createRateLimit } from "../../core/rateLimit";

/** Invitations an admin sends: plenty for setting up a committee, too few to spam people with links. */
export const memberRateLimit = createRateLimit({
  "member-invitation:admin": { limit: 30, windowSeconds: 60 * 60 },
});
