import { createRateLimit } from "../../core/rateLimit";

/** Public applications to join a community: a few per applicant a day, more per (CGNAT-shared) IP. */
export const applicationRateLimit = createRateLimit({
  "application:subject": { limit: 3, windowSeconds: 24 * 60 * 60 },
  "application:ip": { limit: 20, windowSeconds: 60 * 60 },
});
