import { and, eq, gt, inArray, isNull } from "drizzle-orm";
import type { BatchItem } from "drizzle-orm/batch";
import type { PlatformCtx } from "../../core/context";
import { oneTimeTokens } from "../../core/db/platform-schema";
import { clientUrl } from "../../core/env";
import { newId, randomToken, sha256Hex } from "../../core/ids";
import { DAY_MS } from "../../core/time";

/** What a one-time token needs: the platform database and the clock its expiry counts from. */
export type TokenCtx = Pick<PlatformCtx, "platform" | "now">;

export type TokenPurpose = (typeof oneTimeTokens.$inferSelect)["purpose"];

/**
 * How long each kind of link works. Invitations last a week because a resident approved on Friday may
 * open WhatsApp on Monday; sign-in links and exchange codes are short because they grant a session.
 */
export const TOKEN_TTL_SECONDS: Record<TokenPurpose, number> = {
  magic_link: 15 * 60,
  password_reset: 60 * 60,
  invitation: (7 * DAY_MS) / 1000,
  oauth_exchange: 2 * 60,
  join: (7 * DAY_MS) / 1000,
};

/** Where a sign-in link points: the web portal, which posts the token to the verify route. */
export function magicLinkUrl(env: { APP_URL: string; CLIENT_URL?: string }, token: string): string {
  return `${clientUrl(env)}/auth/magic-link?token=${encodeURIComponent(token)}`;
}

export type TokenData = NonNullable<(typeof oneTimeTokens.$inferSelect)["data"]>;

/**
 * A new secret (256 bits) and the insert that stores its SHA-256, as a batch item so the caller can
 * commit it together with the change that warrants it (an approval, a reset request).
 */
export async function newOneTimeToken(
  ctx: TokenCtx,
  input: { purpose: TokenPurpose; userId: string; data?: TokenData },
): Promise<{ id: string; token: string; expiresAt: string; insert: BatchItem<"sqlite"> }> {
  const id = newId();
  const token = randomToken(32);
  const expiresAt = new Date(ctx.now().getTime() + TOKEN_TTL_SECONDS[input.purpose] * 1000).toISOString();
  const insert = ctx.platform.insert(oneTimeTokens).values({
    id,
    purpose: input.purpose,
    tokenHash: await sha256Hex(token),
    userId: input.userId,
    data: input.data ?? null,
    expiresAt,
  });
  return { id, token, expiresAt, insert };
}

/** Spends every unused token of these purposes for a user: only the newest reset or invitation works. */
export function retireTokens(ctx: TokenCtx, userId: string, purposes: TokenPurpose[]): BatchItem<"sqlite"> {
  return ctx.platform
    .update(oneTimeTokens)
    .set({ usedAt: ctx.now().toISOString() })
    .where(
      and(
        eq(oneTimeTokens.userId, userId),
        inArray(oneTimeTokens.purpose, purposes),
        isNull(oneTimeTokens.usedAt),
      ),
    );
}

export type ConsumeFailure = "token_invalid" | "token_expired" | "token_used";

/**
 * Spends a token in the one UPDATE that also checks it: of two concurrent requests with the same token,
 * exactly one gets the row back. A failure is then classified (unknown, expired, already used) so the
 * person can be told to ask for a new link; the token itself is never compared outside the index.
 */
export async function consumeOneTimeToken(
  ctx: TokenCtx,
  purposes: TokenPurpose[],
  token: string,
): Promise<
  { ok: true; userId: string; purpose: TokenPurpose; data: TokenData } | { ok: false; reason: ConsumeFailure }
> {
  const tokenHash = await sha256Hex(token);
  const now = ctx.now().toISOString();
  const spent = await ctx.platform
    .update(oneTimeTokens)
    .set({ usedAt: now })
    .where(
      and(
        eq(oneTimeTokens.tokenHash, tokenHash),
        inArray(oneTimeTokens.purpose, purposes),
        isNull(oneTimeTokens.usedAt),
        gt(oneTimeTokens.expiresAt, now),
      ),
    )
    .returning()
    .get();
  if (spent) {
    return {
      ok: true,
      userId: spent.userId,
      purpose: spent.purpose,
      data: spent.data ?? {},
    };
  }
  const row = await ctx.platform
    .select({ usedAt: oneTimeTokens.usedAt, purpose: oneTimeTokens.purpose })
    .from(oneTimeTokens)
    .where(eq(oneTimeTokens.tokenHash, tokenHash))
    .get();
  if (!row || !purposes.includes(row.purpose)) {
    return { ok: false, reason: "token_invalid" };
  }
  return { ok: false, reason: row.usedAt ? "token_used" : "token_expired" };
}

/**
 * Reads a token without spending it (a link's landing page shows what it is for before the person
 * acts): the row when it could still be spent, otherwise why not, classified as `consumeOneTimeToken` does.
 */
export async function peekOneTimeToken(
  ctx: TokenCtx,
  purposes: TokenPurpose[],
  token: string,
): Promise<
  { ok: true; userId: string; purpose: TokenPurpose; data: TokenData } | { ok: false; reason: ConsumeFailure }
> {
  const row = await ctx.platform
    .select()
    .from(oneTimeTokens)
    .where(eq(oneTimeTokens.tokenHash, await sha256Hex(token)))
    .get();
  if (!row || !purposes.includes(row.purpose)) {
    return { ok: false, reason: "token_invalid" };
  }
  if (row.usedAt) {
    return { ok: false, reason: "token_used" };
  }
  if (row.expiresAt <= ctx.now().toISOString()) {
    return { ok: false, reason: "token_expired" };
  }
  return { ok: true, userId: row.userId, purpose: row.purpose, data: row.data ?? {} };
}
