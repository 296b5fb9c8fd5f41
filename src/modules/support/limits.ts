import { createRateLimit } from "../../core/rateLimit";

/**
 * Limits of the login-free ticket routes. Per IP they stop token guessing and form spam; per token they
 * stop one leaked link flooding a thread. The per-IP limits are generous because mobile carriers put
 * whole neighbourhoods behind one CGNAT address.
 */
export const supportRateLimit = createRateLimit({
  "support-public-read:ip": { limit: 120, windowSeconds: 10 * 60 },
  "support-public-write:ip": { limit: 30, windowSeconds: 10 * 60 },
  "support-public-write:token": { limit: 20, windowSeconds: 60 * 60 },
  "support-contact:ip": { limit: 5, windowSeconds: 60 * 60 },
  "support-contact:email": { limit: 3, windowSeconds: 60 * 60 },
});
