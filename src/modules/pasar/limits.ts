import { createRateLimit } from "../../core/rateLimit";

/** A market stall, not a shop front: a resident lists a few things a day; this stops a flood of spam. */
export const pasarRateLimit = createRateLimit({
  "pasar-create:user": { limit: 20, windowSeconds: 24 * 60 * 60 },
});
