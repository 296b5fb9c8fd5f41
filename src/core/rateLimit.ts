import type { Bindings } from "./env";
import { RateLimited } from "./errors";
import { sha256Hex } from "./ids";

/**
 * Limits of the public credential routes. Per email (or phone) they stop guessing one account's
 * password and flooding one inbox; per IP they stop a single client spraying many accounts. The per-IP
 * limits are generous because Indonesian mobile carriers put whole neighbourhoods behind one CGNAT address.
 */
export const RATE_POLICIES = {
  "login:subject": { limit: 10, windowSeconds: 15 * 60 },
  "login:ip": { limit: 100, windowSeconds: 10 * 60 },
  "magic-link:subject": { limit: 5, windowSeconds: 15 * 60 },
  "magic-link:ip": { limit: 30, windowSeconds: 10 * 60 },
  "forgot-password:subject": { limit: 5, windowSeconds: 60 * 60 },
  "forgot-password:ip": { limit: 30, windowSeconds: 10 * 60 },
  "token-exchange:ip": { limit: 60, windowSeconds: 10 * 60 },
  "application:subject": { limit: 3, windowSeconds: 24 * 60 * 60 },
  "application:ip": { limit: 20, windowSeconds: 60 * 60 },
} as const;
export type RatePolicy = keyof typeof RATE_POLICIES;

/**
 * Counts one attempt against every given key and throws 429 (with Retry-After) if any is over its
 * limit. Subjects are hashed so no email or phone number ends up in a Durable Object name. A null
 * subject (no client IP, e.g. an internal call) is not limited by that key.
 */
export async function rateLimit(
  env: Bindings,
  checks: readonly { policy: RatePolicy; subject: string | null | undefined }[],
): Promise<void> {
  const decisions = await Promise.all(
    checks
      .filter((c): c is { policy: RatePolicy; subject: string } => Boolean(c.subject))
      .map(async ({ policy, subject }) => {
        const { limit, windowSeconds } = RATE_POLICIES[policy];
        const name = `${policy}:${await sha256Hex(subject.trim().toLowerCase())}`;
        const stub = env.RATE_LIMITER.get(env.RATE_LIMITER.idFromName(name));
        return stub.hit(limit, windowSeconds);
      }),
  );
  const refused = decisions.filter((d) => !d.allowed);
  if (refused.length > 0) {
    throw new RateLimited(Math.max(...refused.map((d) => d.retryAfter)));
  }
}
