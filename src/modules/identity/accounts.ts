import { and, eq, or } from "drizzle-orm";
import type { BatchItem } from "drizzle-orm/batch";
import type { TenantCtx } from "../../core/context";
import { isUniqueViolation } from "../../core/db/errors";
import { memberships, users } from "../../core/db/platform-schema";
import { Conflict, NotFound } from "../../core/errors";
import { newId } from "../../core/ids";
import { deliverInvitation, type InvitationResult, invitationChannel } from "./invitations";
import { newOneTimeToken, retireTokens } from "./oneTimeTokens";

export type { InvitationResult } from "./invitations";

/**
 * Resident accounts made by staff (an approved application, a re-sent link). Identity prepares the
 * rows and the link; the caller commits `statements` in its own `ctx.platform.batch`, next to the
 * change that warrants them (the decision, its guard, its audit), so either all of it exists or none.
 * Only after that batch does `send()` deliver the link.
 */
export interface PreparedInvitation {
  statements: [BatchItem<"sqlite">, ...BatchItem<"sqlite">[]];
  send(): Promise<InvitationResult>;
}

export interface PreparedAccount extends PreparedInvitation {
  userId: string;
  /** False when the person already had an account (staff of the RW, a resident elsewhere). */
  newAccount: boolean;
}

export interface NewResident {
  fullName: string;
  email: string | null;
  whatsapp: string;
  /** The house in this tenant's registry. */
  unitId: string;
}

/**
 * A resident membership in this tenant for the person with this email or number: their existing
 * account if they have one, else a new account without a password and a set-password invitation.
 * Someone who already has a password gets a sign-in link instead. 409 `account_conflict` when the email
 * and the number belong to two accounts, 409 `already_member` when the person is a member already.
 */
export async function createResidentAccount({
  ctx,
  input,
}: {
  ctx: TenantCtx;
  input: NewResident;
}): Promise<PreparedAccount> {
  const matches = await ctx.platform
    .select()
    .from(users)
    .where(
      input.email
        ? or(eq(users.email, input.email), eq(users.whatsapp, input.whatsapp))
        : eq(users.whatsapp, input.whatsapp),
    );
  if (matches.length > 1) {
    throw new Conflict(
      "account_conflict",
      "The email and the WhatsApp number of this application belong to two different accounts.",
    );
  }
  const existing = matches[0];
  if (existing) {
    const member = await ctx.platform
      .select({ id: memberships.id })
      .from(memberships)
      .where(and(eq(memberships.userId, existing.id), eq(memberships.tenantId, ctx.tenant.id)))
      .get();
    if (member) {
      throw new Conflict("already_member", "This person already has an account in this community.");
    }
  }
  const userId = existing?.id ?? newId();
  const membershipId = newId();
  const invitation = existing?.passwordHash
    ? null
    : await newOneTimeToken(ctx.platform, { purpose: "invitation", userId });
  const statements: PreparedAccount["statements"] = [
    ctx.platform.insert(memberships).values({
      id: membershipId,
      userId,
      tenantId: ctx.tenant.id,
      role: "warga",
      unitId: input.unitId,
    }),
    ...(existing
      ? []
      : [
          ctx.platform.insert(users).values({
            id: userId,
            email: input.email,
            name: input.fullName,
            whatsapp: input.whatsapp,
            passwordHash: null,
            updatedAt: new Date().toISOString(),
          }),
        ]),
    ...(invitation ? [invitation.insert] : []),
  ];
  const target = existing ?? { name: input.fullName, email: input.email, whatsapp: input.whatsapp };
  return {
    userId,
    newAccount: !existing,
    statements,
    send: () =>
      deliverInvitation(ctx, {
        target,
        token: invitation?.token ?? null,
        idempotencyKey: invitation ? `invitation:${invitation.id}` : `membership:${membershipId}`,
      }),
  };
}

/**
 * A new set-password link for a resident (`id`, a user) of this tenant: they lost it, it expired, or
 * they forgot the password and have no email. Committing `statements` retires every earlier invitation
 * and reset link, so only the newest works. 404 for anyone who is not a resident of this tenant.
 */
export async function inviteResident({
  ctx,
  id,
}: {
  ctx: TenantCtx;
  id: string;
}): Promise<PreparedInvitation> {
  const row = await ctx.platform
    .select({ user: users })
    .from(memberships)
    .innerJoin(users, eq(users.id, memberships.userId))
    .where(
      and(eq(memberships.userId, id), eq(memberships.tenantId, ctx.tenant.id), eq(memberships.role, "warga")),
    )
    .get();
  if (!row) {
    throw new NotFound("Resident");
  }
  const { user } = row;
  if (!invitationChannel(user)) {
    throw new Conflict("no_contact", "This resident has neither an email nor a WhatsApp number.");
  }
  const invitation = await newOneTimeToken(ctx.platform, { purpose: "invitation", userId: id });
  return {
    // Retiring first: the new token is not yet there to be retired with the old ones.
    statements: [retireTokens(ctx.platform, id, ["invitation", "password_reset"]), invitation.insert],
    send: () =>
      deliverInvitation(ctx, {
        target: user,
        token: invitation.token,
        idempotencyKey: `invitation:${invitation.id}`,
      }),
  };
}

/**
 * Whether a batch with `createResidentAccount`'s statements failed because someone took the email or
 * number, or made the membership, between the check and the batch.
 */
export function isAccountConflict(error: unknown): boolean {
  return (
    isUniqueViolation(error, "users.email") ||
    isUniqueViolation(error, "users.whatsapp") ||
    isUniqueViolation(error, "memberships.user_id")
  );
}
