import type { PlatformCtx } from "../../core/context";
import { users } from "../../core/db/identity-schema";
import { rowById } from "../../core/db/rows";
import { Unauthorized } from "../../core/errors";
import { identityRateLimit as rateLimit } from "./limits";
import { consumeOneTimeToken, retireInvitations } from "./oneTimeTokens";
import { signIn } from "./sessions";
import { normaliseSignInCode, SIGN_IN_CODE_ALPHABET, SIGN_IN_CODE_LENGTH } from "./signInCodes";

/** Redeeming an officer's sign-in code (signInCodes.ts): kept apart so issuing it needs no session code. */

const FAILURES = {
  token_invalid: "This sign-in code is not valid.",
  token_expired: "This sign-in code has expired; ask the community's officer for a new one.",
  token_used: "This sign-in code was already used; ask the community's officer for a new one.",
} as const;

/**
 * Spends a sign-in code and opens a session in its community (the same answer as password sign-in).
 * A member invited but not yet joined has joined now: their pending set-password invitation is retired
 * (the code replaced it). Limited per address and per code.
 */
export async function redeemSignInCode({ ctx, input }: { ctx: PlatformCtx; input: { code: string } }) {
  const code = normaliseSignInCode(input.code);
  await rateLimit(ctx.env, [
    { policy: "sign-in-code:ip", subject: ctx.ip },
    { policy: "sign-in-code:subject", subject: code },
  ]);
  if (code.length !== SIGN_IN_CODE_LENGTH || [...code].some((c) => !SIGN_IN_CODE_ALPHABET.includes(c))) {
    throw new Unauthorized("token_invalid", FAILURES.token_invalid);
  }
  const result = await consumeOneTimeToken(ctx, ["sign_in_code"], code);
  if (!result.ok) {
    throw new Unauthorized(result.reason, FAILURES[result.reason]);
  }
  const user = await rowById(ctx.platform, users, result.userId);
  if (!user) {
    throw new Unauthorized("token_invalid", FAILURES.token_invalid);
  }
  const session = await signIn(ctx, user, result.data.tenant);
  if (result.tenantId) {
    // Signed in with what the officer handed over: the link the invitation sent is no longer needed.
    await retireInvitations(ctx, { tenantId: result.tenantId, userId: user.id, reason: "replaced" });
  }
  return session;
}
