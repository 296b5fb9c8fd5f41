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
  // Issue 45: a WhatsApp sign-in code costs a message to the number; a code typed is a guess at six digits
  // (each code also spends itself after five wrong tries, contacts.ts).
  "whatsapp-code:subject": { limit: 3, windowSeconds: 15 * 60 },
  "whatsapp-code:ip": { limit: 30, windowSeconds: 10 * 60 },
  "whatsapp-code-verify:subject": { limit: 10, windowSeconds: 15 * 60 },
  "whatsapp-code-verify:ip": { limit: 60, windowSeconds: 10 * 60 },
  // An officer's sign-in code: 60 bits, so these only stop a client spraying guesses or a leaked code.
  "sign-in-code:ip": { limit: 20, windowSeconds: 10 * 60 },
  "sign-in-code:subject": { limit: 5, windowSeconds: 10 * 60 },
  // Issue 45: changing one's own password checks the current one: a stolen session guessing it.
  "password-change:subject": { limit: 10, windowSeconds: 15 * 60 },
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
 * The account-wide ceiling (issue 31, N1): the same failure budget, counted for the account whatever
 * the address. The per-address budget above slows only addresses that already failed, so an attacker
 * with a proxy pool or an IPv6 /64 got one free guess per address; past this threshold every address,
 * fresh or not, waits 60 s, 120 s … up to 15 minutes between guesses (about four an hour). Higher than
 * the per-address threshold, so an attacker's first failures from one address still leave the owner
 * the password; past it the owner is told (with a one-tap sign-in link), and the magic link and the
 * password reset, which this budget never touches, keep them from being locked out.
 */
export const LOGIN_CEILING: FailurePolicy = {
  threshold: 15,
  windowSeconds: 60 * 60,
  baseDelaySeconds: 60,
  maxDelaySeconds: 15 * 60,
};

/** The one "source" of the ceiling's object: every address counts as the same one there. */
const EVERY_ADDRESS = "every-address";

/**
 * The subject a per-address limit counts: an IPv4 address as it is, an IPv6 address as its /64 (one
 * subscriber's whole prefix, which an attacker can rotate through at will). Not an address: as given.
 */
export function addressBlock(ip: string | null): string | null {
  if (!ip?.includes(":")) {
    return ip;
  }
  const text = ip.trim().toLowerCase().replace(/%.*$/, "");
  const mapped = /^::ffff:(\d{1,3}(?:\.\d{1,3}){3})$/.exec(text);
  if (mapped?.[1]) {
    return mapped[1];
  }
  const halves = text.split("::");
  if (halves.length > 2) {
    return ip;
  }
  const groupsOf = (part: string | undefined) => (part ? part.split(":") : []);
  const left = groupsOf(halves[0]);
  const right = groupsOf(halves[1]);
  // A dotted IPv4 tail stands for two groups.
  const width = left.length + right.length + (right.at(-1)?.includes(".") ? 1 : 0);
  const groups =
    halves.length === 2 ? [...left, ...Array<string>(Math.max(0, 8 - width)).fill("0"), ...right] : left;
  const prefix = groups.slice(0, 4);
  if (prefix.length < 4 || prefix.some((g) => !/^[0-9a-f]{1,4}$/.test(g))) {
    return ip;
  }
  return `${prefix.map((g) => g.replace(/^0+(?=.)/, "")).join(":")}::/64`;
}

export type LoginRefusal = "address" | "account";

/**
 * Starts one password check against an account's failure budgets (`account`: the user id, or for an
 * identifier that names no account the identifier itself, so an unknown email behaves exactly like a
 * known one with a wrong password): this address's, then the account-wide ceiling. Throws 429 with
 * Retry-After while either says wait (calling `onRefused` first, with which one); else the attempt
 * counts as a failure in both until `succeeded()` is called.
 */
export async function startLoginAttempt(
  env: Pick<ServiceEnv, "RATE_LIMITER">,
  account: string,
  ip: string | null,
  onRefused?: (by: LoginRefusal) => void,
): Promise<{ succeeded(): Promise<void> }> {
  const [name, source] = await Promise.all([
    sha256Hex(account.trim().toLowerCase()),
    sha256Hex(addressBlock(ip) || NO_CLIENT_IP),
  ]);
  const stub = env.RATE_LIMITER.get(env.RATE_LIMITER.idFromName(`login-failures:${name}`));
  const decision = await stub.attempt(source, LOGIN_FAILURES);
  if (!decision.allowed) {
    onRefused?.("address");
    throw new RateLimited(decision.retryAfter);
  }
  // After the address's own budget: an address already waiting is not counted against the account.
  const ceiling = env.RATE_LIMITER.get(env.RATE_LIMITER.idFromName(`login-ceiling:${name}`));
  const overall = await ceiling.attempt(EVERY_ADDRESS, LOGIN_CEILING);
  if (!overall.allowed) {
    onRefused?.("account");
    throw new RateLimited(overall.retryAfter);
  }
  return {
    succeeded: async () => {
      await Promise.all([
        stub.succeeded(decision.attemptId, source),
        ceiling.succeeded(overall.attemptId, EVERY_ADDRESS),
      ]);
    },
  };
}

/** At most one "someone is guessing your password" notice per account per hour. */
export const loginAlertRateLimit = createRateLimit({
  "login-alert:account": { limit: 1, windowSeconds: 60 * 60 },
});

/**
 * A person's own data export reads every community's database they belong to: a few a day are plenty
 * for a person, and the limit keeps a stolen session from using it as a cheap way to load every slot.
 */
export const dataExportRateLimit = createRateLimit({
  "data-export:user": { limit: 5, windowSeconds: 60 * 60 },
});

/**
 * Verification codes for a contact (contacts.ts): each sends a message at our cost to a number or inbox
 * the caller typed, so per account (one person cannot spam), per contact (many accounts claiming one
 * number cannot flood its holder) and per community (a neighbourhood's accounts together).
 */
export const contactCodeRateLimit = createRateLimit({
  "contact-code:account": {
    limit: 5,
    windowSeconds: 60 * 60,
    quota: "5 verification codes per account per hour",
  },
  "contact-code:contact": {
    limit: 3,
    windowSeconds: 15 * 60,
    quota: "3 codes to one contact per 15 minutes",
  },
  "contact-code:community": { limit: 100, windowSeconds: 60 * 60 },
});
