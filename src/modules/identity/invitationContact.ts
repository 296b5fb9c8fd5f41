import { and, eq, ne, sql } from "drizzle-orm";
import type { TenantCtx } from "../../core/context";
import { memberships, oneTimeTokens, users } from "../../core/db/identity-schema";
import { Conflict, NotFound } from "../../core/errors";
import { hasSignedIn, type PreparedAccount, resendInvitation } from "./accounts";
import { verifiedHolderOf, whatsappTaken } from "./contacts";
import { tokenTenantSql } from "./oneTimeTokens";

/**
 * Adds or replaces the email or WhatsApp number of an account this community invited and nobody has
 * used yet (issue 45), and re-sends its set-password link through that contact. The contact is kept
 * unproven (issue 44: only proven contacts are matched; using the link proves it). `id` is the pending
 * invitation's (as `GET /api/members/invitations` lists it). 404 for no invitation of this community;
 * 409 `invitation_is_join` for a join link (the account's contacts are its holder's), 409
 * `invitation_not_pending` for one accepted, revoked or replaced, 409 `whatsapp_taken` for a number
 * another account has proven, 409 `account_conflict` for an email another account has.
 */
export async function setInvitationContact(
  ctx: TenantCtx,
  input: { id: string; email?: string; whatsapp?: string },
): Promise<PreparedAccount> {
  const row = await ctx.platform
    .select({ purpose: oneTimeTokens.purpose, usedAt: oneTimeTokens.usedAt, user: users })
    .from(oneTimeTokens)
    .innerJoin(users, eq(users.id, oneTimeTokens.userId))
    .where(and(eq(oneTimeTokens.id, input.id), sql`${tokenTenantSql} = ${ctx.tenant.id}`))
    .get();
  if (!row || (row.purpose !== "invitation" && row.purpose !== "join")) {
    throw new NotFound("Invitation");
  }
  if (row.purpose === "join") {
    throw new Conflict(
      "invitation_is_join",
      "This invitation asks an existing account to join; its contacts are its holder's. Revoke it and invite by another contact.",
    );
  }
  const member = await ctx.platform
    .select({ id: memberships.id })
    .from(memberships)
    .where(and(eq(memberships.userId, row.user.id), eq(memberships.tenantId, ctx.tenant.id)))
    .get();
  if (row.usedAt || !member || (await hasSignedIn(ctx, row.user.id))) {
    throw new Conflict(
      "invitation_not_pending",
      "This invitation was accepted, revoked or replaced. Re-send the newest one, or invite the person again.",
    );
  }
  const { user } = row;
  if (input.whatsapp && (await verifiedHolderOf(ctx, input.whatsapp, user.id))) {
    throw whatsappTaken();
  }
  if (input.email) {
    const holder = await ctx.platform
      .select({ id: users.id })
      .from(users)
      .where(and(eq(users.email, input.email), ne(users.id, user.id)))
      .get();
    if (holder) {
      throw new Conflict(
        "account_conflict",
        "Another account has this email: invite the person by it instead.",
      );
    }
  }
  const now = ctx.now().toISOString();
  const change = input.email
    ? { email: input.email, emailVerifiedAt: user.email === input.email ? user.emailVerifiedAt : null }
    : { whatsapp: input.whatsapp ?? null, whatsappVerifiedAt: null };
  const updated = { ...user, ...change };
  const prepared = await resendInvitation(ctx, updated, {
    membership: ctx.platform
      .update(users)
      .set({ ...change, updatedAt: now })
      .where(eq(users.id, user.id)),
    // Through the contact the admin just gave, whatever else the account has.
    to: {
      name: user.name,
      email: input.email ?? null,
      whatsapp: input.email ? null : (input.whatsapp ?? null),
    },
  });
  return prepared;
}
