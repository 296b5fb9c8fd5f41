import { createRateLimit } from "../../core/rateLimit";

/**
 * An export reads the community's whole database and every file it owns: a tenant admin may ask for
 * ten a day (a second click while one is under way counts too, and answers that one).
 */
export const archiveRateLimit = createRateLimit({
  "archive-export:tenant": { limit: 10, windowSeconds: 24 * 60 * 60 },
});
