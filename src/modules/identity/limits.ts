import { createRateLimit } from "../../core/rateLimit";

/**
 * Limits of the public credential routes. Per email (or phone) they stop guessing one account's
 * password and flooding one inbox; per IP they stop a single client spraying many accounts. The per-IP
 * limits are generous because Indonesian mobile carriers put whole neighbourhoods behind one CGNAT address.
 */
export const identityRateLimit = createRateLimit({
  "login:subject": { limit: 10, windowSeconds: 15 * 60 },
  "login:ip": { limit: 100, windowSeconds: 10 * 60 },
  "magic-link:subject": { limit: 5, windowSeconds: 15 * 60 },
  "magic-link:ip": { limit: 30, windowSeconds: 10 * 60 },
  "forgot-password:subject": { limit: 5, windowSeconds: 60 * 60 },
  "forgot-password:ip": { limit: 30, windowSeconds: 10 * 60 },
  "token-exchange:ip": { limit: 60, windowSeconds: 10 * 60 },
});
