import type { ServiceEnv } from "../../core/context";
import { RateLimited } from "../../core/errors";
import { sha256Hex } from "../../core/ids";
import { createRateLimit, NO_CLIENT_IP } from "../../core/rateLimit";
import type { FailurePolicy } from "../../durable/RateLimiter";

/**
 * Limits of the public credential routes. Per email (or phone) they stop flooding one inbox; per IP
 * they stop a single client spraying many accounts. The per-IP limits are generous because Indonesian
 * mobile carriers put whole neighbourhoods behind one CGNAT address. Password guessing on one account
 * is the failure budget below, not a count here.
 */
export const identityRateLimit = createRateLimit({
  "login:ip": { limit: 100, windowSeconds: 10 * 60 },
  "magic-link:subject": { limit: 5, windowSeconds: 15 * 60 },
  "magic-link:ip": { limit: 30, windowSeconds: 10 * 60 },
  "forgot-password:subject": { limit: 5, windowSeconds: 60 * 60 },
  "forgot-password:ip": { limit: 30, windowSeconds: 10 * 60 },
  "token-exchange:ip": { limit: 60, windowSeconds: 10 * 60 },
});

/**
 * Wrong passwords per account, whichever identifier (email or WhatsApp number) was typed: ten in an
 * hour are free, then the addresses that failed wait 30 s, 60 s, 120 s … up to 15 minutes. A soft
 * limit rather than a lock, because a hard lock lets anyone who knows an email lock its owner out: the
 * owner, from an address that has not failed, still gets in with the right password.
 */
export const LOGIN_FAILURES: FailurePolicy = {
  threshold: 10,
  windowSeconds: 60 * 60,
  baseDelaySeconds: 30,
  maxDelaySeconds: 15 * 60,
};

/**
 * Starts one password check against an account's failure budget (`account`: the user id, or for an
 * identifier that names no account the identifier itself, so an unknown email behaves exactly like a
 * known one with a wrong password). Throws 429 with Retry-After while this address must wait; else
 * the attempt counts as a failure until `succeeded()` is called.
 */
export async function startLoginAttempt(
  env: Pick<ServiceEnv, "RATE_LIMITER">,
  account: string,
  ip: string | null,
): Promise<{ succeeded(): Promise<void> }> {
  const [name, source] = await Promise.all([
    sha256Hex(account.trim().toLowerCase()),
    sha256Hex(ip || NO_CLIENT_IP),
  ]);
  const stub = env.RATE_LIMITER.get(env.RATE_LIMITER.idFromName(`login-failures:${name}`));
  const decision = await stub.attempt(source, LOGIN_FAILURES);
  if (!decision.allowed) {
    throw new RateLimited(decision.retryAfter);
  }
  return { succeeded: () => stub.succeeded(decision.attemptId, source) };
}

/**
 * A person's own data export reads every community's database they belong to: a few a day are plenty
 * for a person, and the limit keeps a stolen session from using it as a cheap way to load every slot.
 */
export const dataExportRateLimit = createRateLimit({
  "data-export:user": { limit: 5, windowSeconds: 60 * 60 },
});
