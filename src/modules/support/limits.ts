import type { Bindings } from "../../core/env";
import { RateLimited } from "../../core/errors";
import { sha256Hex } from "../../core/ids";

/**
 * Limits of the login-free ticket routes, on the same RateLimiter Durable Object as the sign-in routes
 * (core/rateLimit.ts keeps a closed table of identity's policies; these belong to this module). Per IP
 * they stop token guessing and form spam; per token they stop one leaked link flooding a thread. The
 * per-IP limits are generous because mobile carriers put whole neighbourhoods behind one CGNAT address.
 */
export const SUPPORT_RATE_POLICIES = {
  "support-public-read:ip": { limit: 120, windowSeconds: 10 * 60 },
  "support-public-write:ip": { limit: 30, windowSeconds: 10 * 60 },
  "support-public-write:token": { limit: 20, windowSeconds: 60 * 60 },
  "support-contact:ip": { limit: 5, windowSeconds: 60 * 60 },
  "support-contact:email": { limit: 3, windowSeconds: 60 * 60 },
} as const;
export type SupportRatePolicy = keyof typeof SUPPORT_RATE_POLICIES;

export async function supportRateLimit(
  env: Bindings,
  checks: readonly { policy: SupportRatePolicy; subject: string | null | undefined }[],
): Promise<void> {
  const decisions = await Promise.all(
    checks
      .filter((c): c is { policy: SupportRatePolicy; subject: string } => Boolean(c.subject))
      .map(async ({ policy, subject }) => {
        const { limit, windowSeconds } = SUPPORT_RATE_POLICIES[policy];
        const name = `${policy}:${await sha256Hex(subject.trim().toLowerCase())}`;
        return env.RATE_LIMITER.get(env.RATE_LIMITER.idFromName(name)).hit(limit, windowSeconds);
      }),
  );
  const refused = decisions.filter((d) => !d.allowed);
  if (refused.length > 0) {
    throw new RateLimited(Math.max(...refused.map((d) => d.retryAfter)));
  }
}
