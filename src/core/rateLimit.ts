import type { ServiceEnv } from "./context";
import { RateLimited } from "./errors";
import { sha256Hex } from "./ids";

export interface RatePolicy {
  limit: number;
  windowSeconds: number;
}

/**
 * A module's rate limits: `createRateLimit({ "login:ip": { limit, windowSeconds }, … })` returns the
 * function that counts one attempt against every given key and throws 429 (with Retry-After) if any is
 * over its limit. Each module owns its policy table; the counting lives in the RateLimiter Durable
 * Object, one per policy and subject. Subjects are hashed so no email or phone number ends up in a
 * Durable Object name. A null subject (no client IP, e.g. an internal call) is not limited by that key.
 */
export function createRateLimit<const P extends Record<string, RatePolicy>>(policies: P) {
  return async function rateLimit(
    env: Pick<ServiceEnv, "RATE_LIMITER">,
    checks: readonly { policy: keyof P & string; subject: string | null | undefined }[],
  ): Promise<void> {
    const decisions = await Promise.all(
      checks
        .filter((c): c is { policy: keyof P & string; subject: string } => Boolean(c.subject))
        .map(async ({ policy, subject }) => {
          const { limit, windowSeconds } = policies[policy] as RatePolicy;
          const name = `${policy}:${await sha256Hex(subject.trim().toLowerCase())}`;
          const stub = env.RATE_LIMITER.get(env.RATE_LIMITER.idFromName(name));
          return stub.hit(limit, windowSeconds);
        }),
    );
    const refused = decisions.filter((d) => !d.allowed);
    if (refused.length > 0) {
      throw new RateLimited(Math.max(...refused.map((d) => d.retryAfter)));
    }
  };
}
