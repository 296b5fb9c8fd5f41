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
 * Durable Object name.
 *
 * The client IP comes from Cloudflare's `CF-Connecting-IP`. Where it is absent (outside Cloudflare:
 * local dev, tests, a misrouted request) every such request shares one fixed bucket per policy
 * rather than going unlimited: absent is not a way around the limit. Other subjects (an email, a
 * token) that are absent are not counted, since there is nothing to count them against.
 */
/** The one bucket of every request that reaches a per-IP limit without a client IP. */
export const NO_CLIENT_IP = "no-client-ip";

export function createRateLimit<const P extends Record<string, RatePolicy>>(policies: P) {
  return async function rateLimit(
    env: Pick<ServiceEnv, "RATE_LIMITER">,
    checks: readonly { policy: keyof P & string; subject: string | null | undefined }[],
  ): Promise<void> {
    const decisions = await Promise.all(
      checks
        .map(({ policy, subject }) => ({
          policy,
          subject: subject || (policy.endsWith(":ip") ? NO_CLIENT_IP : null),
        }))
        .filter((c): c is { policy: keyof P & string; subject: string } => c.subject !== null)
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
