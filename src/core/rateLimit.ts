import type { Role, ServiceEnv, TenantCtx } from "./context";
import { RateLimited } from "./errors";
import { hasRole, requireUser } from "./http/access";
import { sha256Hex } from "./ids";
import { noteRateLimit } from "./rateLimitHeaders";
import type { Clock } from "./time";

export interface RatePolicy {
  limit: number;
  windowSeconds: number;
  /**
   * What the policy counts, in words a resident understands ("20 complaints a day"): the 429's detail
   * names it, so the client can say which limit was reached. Without it the detail stays generic.
   */
  quota?: string;
  /** `bytes`: each check spends its `cost` (an upload's size) against `limit`; otherwise one per check. */
  unit?: "attempts" | "bytes";
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
 *
 * With a `clock` (any context), the window is measured on `ctx.now()`, so a test moves the clock to see a
 * quota reset; without one, on the Durable Object's own time.
 */
/** The one bucket of every request that reaches a per-IP limit without a client IP. */
export const NO_CLIENT_IP = "no-client-ip";

export interface RateCheck<Policy extends string> {
  policy: Policy;
  subject: string | null | undefined;
  /** For a `bytes` policy: how many bytes this request spends. */
  cost?: number;
}

export function createRateLimit<const P extends Record<string, RatePolicy>>(policies: P) {
  return async function rateLimit(
    env: Pick<ServiceEnv, "RATE_LIMITER">,
    checks: readonly RateCheck<keyof P & string>[],
    clock?: Clock,
  ): Promise<void> {
    const at = clock?.now().getTime();
    const decisions = await Promise.all(
      checks
        .map((check) => ({
          ...check,
          subject: check.subject || (check.policy.endsWith(":ip") ? NO_CLIENT_IP : null),
        }))
        .filter((c): c is RateCheck<keyof P & string> & { subject: string } => c.subject !== null)
        .map(async ({ policy, subject, cost }) => {
          const { limit, windowSeconds, unit } = policies[policy] as RatePolicy;
          const name = `${policy}:${await sha256Hex(subject.trim().toLowerCase())}`;
          const stub = env.RATE_LIMITER.get(env.RATE_LIMITER.idFromName(name));
          const decision =
            unit === "bytes"
              ? await stub.spend(cost ?? 0, limit, windowSeconds, at)
              : await stub.hit(limit, windowSeconds, at);
          noteRateLimit({
            policy,
            limit,
            windowSeconds,
            remaining: decision.remaining,
            reset: decision.allowed ? windowSeconds : decision.retryAfter,
            ...(unit ? { unit } : {}),
          });
          return { ...decision, policy };
        }),
    );
    const refused = decisions.filter((d) => !d.allowed);
    if (refused.length > 0) {
      const retryAfter = Math.max(...refused.map((d) => d.retryAfter));
      const named = refused.flatMap((d) => {
        const quota = (policies[d.policy] as RatePolicy).quota;
        return quota ? [`${quota} (${d.policy})`] : [];
      });
      throw new RateLimited(
        retryAfter,
        named.length > 0
          ? `Quota reached: ${named.join("; ")}. Try again in ${retryAfter} seconds.`
          : undefined,
      );
    }
  };
}

/** A quota on what one member creates in one community (ADR 0033). */
export interface MemberQuota extends RatePolicy {
  quota: string;
  /** Duties whose work is to create these for others (a satpam registering guests): not counted. */
  exempt?: readonly Role[];
}

/**
 * Per-member, per-community quotas: the subject is the community and the member together, so a member
 * of two communities has a budget in each and spending one leaves the other whole. The window runs on
 * the context's clock. `memberQuota(ctx, "pengaduan-create:member")` counts one; a `bytes` quota takes
 * the request's size as `cost`.
 */
export function createMemberQuota<const P extends Record<string, MemberQuota>>(policies: P) {
  const limit = createRateLimit(policies);
  return async function memberQuota(ctx: TenantCtx, policy: keyof P & string, cost?: number): Promise<void> {
    const { exempt } = policies[policy] as MemberQuota;
    if (exempt && hasRole(ctx, exempt)) {
      return;
    }
    const subject = `${ctx.tenant.id}:${requireUser(ctx).userId}`;
    await limit(ctx.env, [{ policy, subject, ...(cost === undefined ? {} : { cost }) }], ctx);
  };
}
