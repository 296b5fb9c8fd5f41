import { and, eq, gt, inArray, isNull, ne, or, type SQL, sql } from "drizzle-orm";
import type { BatchItem } from "drizzle-orm/batch";
import type { PlatformCtx } from "../../core/context";
import { oneTimeTokens } from "../../core/db/identity-schema";
import { clientUrl } from "../../core/env";
import { Gone } from "../../core/errors";
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
  // An officer's sign-in code (signInCodes.ts): handed over in person, so a day rather than minutes.
  sign_in_code: 24 * 60 * 60,
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
  input: {
    purpose: TokenPurpose;
    userId: string;
    data?: TokenData;
    /** An invitation's or join link's community, sender and channel (see `newInvitationToken`). */
    tenantId?: string;
    invitedBy?: string | null;
    channel?: "email" | "whatsapp" | null;
  },
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
    tenantId: input.tenantId ?? null,
    invitedBy: input.invitedBy ?? null,
    channel: input.channel ?? null,
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

/** Why an invitation or join link was retired before anyone used it. */
export type RetiredReason = "replaced" | "revoked" | "removed";

/** The links that bring a person into a community: a new account's set-password link, a join link. */
export const INVITATION_PURPOSES: TokenPurpose[] = ["invitation", "join"];

/**
 * The community a token row belongs to: its own column, or for a join link made before the column
 * existed, the one its data names.
 */
export const tokenTenantSql = sql<
  string | null
>`coalesce(${oneTimeTokens.tenantId}, json_extract(${oneTimeTokens.data}, '$.tenantId'))`;

/**
 * Retires the unused invitations and join links of a community (issue 44): those of one person
 * (`userId`: a newer invitation to them, or their removal) or one link (`id`: the admin revokes it). A
 * retired link is spent (`used_at`) and says why (`retired_at`, `retired_reason`), so whoever opens it
 * is told it was withdrawn (410 `invitation_retired`) rather than that it was used. `RETURNING` names
 * what it retired.
 */
export function retireInvitations(
  ctx: TokenCtx,
  input: { tenantId: string; reason: RetiredReason } & ({ userId: string } | { id: string }),
) {
  const now = ctx.now().toISOString();
  const which: SQL =
    "userId" in input ? eq(oneTimeTokens.userId, input.userId) : eq(oneTimeTokens.id, input.id);
  return ctx.platform
    .update(oneTimeTokens)
    .set({ usedAt: now, retiredAt: now, retiredReason: input.reason })
    .where(
      and(
        which,
        inArray(oneTimeTokens.purpose, INVITATION_PURPOSES),
        isNull(oneTimeTokens.usedAt),
        sql`${tokenTenantSql} = ${input.tenantId}`,
      ),
    )
    .returning({ id: oneTimeTokens.id, userId: oneTimeTokens.userId });
}

/** A token that could be spent (its row), or why not; `retired` when staff or a newer link withdrew it. */
export type TokenOutcome =
  | {
      ok: true;
      id: string;
      userId: string;
      purpose: TokenPurpose;
      data: TokenData;
      /** The community of an invitation or join link, when it names one. */
      tenantId: string | null;
      /** The channel an invitation's link was sent by, when it was stored (issue 45: the contact it proves). */
      channel: "email" | "whatsapp" | null;
      createdAt: string;
    }
  | { ok: false; reason: ConsumeFailure; retired?: RetiredReason };

/** 410 `invitation_retired`: the link was withdrawn (a newer invitation, the admin, the member's removal). */
export function invitationRetired(): Gone {
  return new Gone(
    "invitation_retired",
    "This invitation was withdrawn or replaced by a newer one; ask the community's admin for a new link.",
  );
}

/**
 * Whether a newer invitation or join link to the same person for the same community exists (used,
 * pending or retired): the community's latest word on the membership is that one, so this older link
 * offers what it no longer wants. New links retire older ones when stored; this catches links stored
 * before that (issue 44).
 */
export async function isSuperseded(
  ctx: TokenCtx,
  token: { id: string; userId: string; tenantId: string | null; createdAt: string },
): Promise<boolean> {
  if (!token.tenantId) {
    return false;
  }
  const newer = await ctx.platform
    .select({ id: oneTimeTokens.id })
    .from(oneTimeTokens)
    .where(
      and(
        eq(oneTimeTokens.userId, token.userId),
        inArray(oneTimeTokens.purpose, INVITATION_PURPOSES),
        ne(oneTimeTokens.id, token.id),
        sql`${tokenTenantSql} = ${token.tenantId}`,
        or(
          gt(oneTimeTokens.createdAt, token.createdAt),
          and(eq(oneTimeTokens.createdAt, token.createdAt), gt(oneTimeTokens.id, token.id)),
        ),
      ),
    )
    .limit(1)
    .get();
  return newer !== undefined;
}

/**
 * Spends a token in the one UPDATE that also checks it: of two concurrent requests with the same token,
 * exactly one gets the row back. A failure is then classified (unknown, expired, already used) so the
 * person can be told to ask for a new link; the token itself is never compared outside the index.
 */
export async function consumeOneTimeToken(
  ctx: TokenCtx,
  purposes: TokenPurpose[],
  token: string,
): Promise<TokenOutcome> {
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
      id: spent.id,
      userId: spent.userId,
      purpose: spent.purpose,
      data: spent.data ?? {},
      tenantId: spent.tenantId ?? spent.data?.tenantId ?? null,
      channel: spent.channel ?? null,
      createdAt: spent.createdAt,
    };
  }
  const row = await ctx.platform
    .select({
      usedAt: oneTimeTokens.usedAt,
      purpose: oneTimeTokens.purpose,
      retiredReason: oneTimeTokens.retiredReason,
    })
    .from(oneTimeTokens)
    .where(eq(oneTimeTokens.tokenHash, tokenHash))
    .get();
  if (!row || !purposes.includes(row.purpose)) {
    return { ok: false, reason: "token_invalid" };
  }
  return row.usedAt
    ? { ok: false, reason: "token_used", ...(row.retiredReason ? { retired: row.retiredReason } : {}) }
    : { ok: false, reason: "token_expired" };
}

/**
 * Reads a token without spending it (a link's landing page shows what it is for before the person
 * acts): the row when it could still be spent, otherwise why not, classified as `consumeOneTimeToken` does.
 */
export async function peekOneTimeToken(
  ctx: TokenCtx,
  purposes: TokenPurpose[],
  token: string,
): Promise<TokenOutcome> {
  const row = await ctx.platform
    .select()
    .from(oneTimeTokens)
    .where(eq(oneTimeTokens.tokenHash, await sha256Hex(token)))
    .get();
  if (!row || !purposes.includes(row.purpose)) {
    return { ok: false, reason: "token_invalid" };
  }
  if (row.usedAt) {
    return { ok: false, reason: "token_used", ...(row.retiredReason ? { retired: row.retiredReason } : {}) };
  }
  if (row.expiresAt <= ctx.now().toISOString()) {
    return { ok: false, reason: "token_expired" };
  }
  return {
    ok: true,
    id: row.id,
    userId: row.userId,
    purpose: row.purpose,
    data: row.data ?? {},
    tenantId: row.tenantId ?? row.data?.tenantId ?? null,
    channel: row.channel ?? null,
    createdAt: row.createdAt,
  };
}
