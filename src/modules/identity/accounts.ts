import { and, eq, isNotNull, isNull, not, or, sql } from "drizzle-orm";
import type { BatchItem } from "drizzle-orm/batch";
import type { Duty, TenantCtx } from "../../core/context";
import { memberships, users } from "../../core/db/identity-schema";
import { Conflict, NotFound } from "../../core/errors";
import { newId } from "../../core/ids";
import { personTaken } from "./accountConflicts";
import type { UserRow } from "./directory";
import { residentSql, signedInSql } from "./duties";
import {
  deliverInvitation,
  deliverJoinLink,
  type InvitationResult,
  type InvitationTarget,
  invitationChannel,
} from "./invitations";
import { newOneTimeToken, retireInvitations, retireTokens, type TokenPurpose } from "./oneTimeTokens";

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
  /**
   * The new account, or null when the email or number belongs to an existing account: that account
   * is never linked on an applicant's word, its holder gets a join link instead (see join.ts).
   */
  userId: string | null;
}

export interface NewResident {
  fullName: string;
  email: string | null;
  whatsapp: string;
  /** The house in this tenant's registry. */
  unitId: string;
  /** Their own person on a family card of this tenant's registry, when staff picked one (checked by the caller). */
  personId?: string | null;
}

/** Someone invited into a community: a resident from an application, or an officer or guard. */
export interface NewMember {
  fullName: string;
  /** At least one of email and WhatsApp (the caller's schema says so). */
  email: string | null;
  whatsapp: string | null;
  /** Their house in the tenant's registry; none for an officer or guard who does not live there. */
  unitId: string | null;
  /** Duties in the community; none for a plain resident. */
  roles: Duty[];
  /**
   * Their own person on a family card of this tenant's registry (`family_members.id`), the link letters
   * "for myself", the household view and the data export read. The caller checks that the person
   * exists in this tenant's registry; identity keeps it to one account per person.
   */
  personId?: string | null;
}

/**
 * What inviting someone needs of a tenant: where its memberships live and how to tell the person. The
 * operator invites a new community's first admin with no tenant context of its own, so this is less
 * than a TenantCtx.
 */
export type InvitingCtx = Pick<TenantCtx, "platform" | "env" | "requestId" | "now" | "actor"> & {
  tenant: { id: string; name: string };
};

/**
 * A new invitation or join link into the community for the account `userId`, and the statements that
 * commit it: first every earlier unused invitation and join link of that person here is retired (issue
 * 44: only the newest invitation, with its duties, can be accepted), then the new link is stored with
 * its community, its sender, the channel the inviter was told and the person as the inviter named them
 * (what the pending-invitations list shows).
 */
export async function newInvitationToken(
  ctx: InvitingCtx,
  input: {
    purpose: Extract<TokenPurpose, "invitation" | "join">;
    userId: string;
    invitee: { name: string; email: string | null; whatsapp: string | null };
    data?: Omit<NonNullable<Parameters<typeof newOneTimeToken>[1]["data"]>, "invitee">;
  },
) {
  const token = await newOneTimeToken(ctx, {
    purpose: input.purpose,
    userId: input.userId,
    tenantId: ctx.tenant.id,
    invitedBy: ctx.actor.kind === "user" ? ctx.actor.userId : null,
    channel: invitationChannel(input.invitee),
    data: { ...input.data, invitee: input.invitee },
  });
  const retire = retireInvitations(ctx, {
    tenantId: ctx.tenant.id,
    userId: input.userId,
    reason: "replaced",
  });
  // Retiring first: the new token is not yet there to be retired with the old ones.
  const statements: [BatchItem<"sqlite">, BatchItem<"sqlite">] = [retire, token.insert];
  return { ...token, retire, statements };
}

/**
 * The account an invitation's email or WhatsApp number names, if any. When the email and the number
 * name two accounts, the number (the one that signs in on WhatsApp) decides whom to ask; the other
 * account is not touched. A number matches only the account that proved it (contacts.ts): anyone may
 * type any number on their profile, and a join link sent to the real holder's phone must not enrol
 * the account that merely claimed it (issue 44, P1). Emails are never typed by their account's holder
 * (staff or an applicant give them, and the first link goes to them), so they match as they are.
 */
export async function accountByContact(
  ctx: Pick<InvitingCtx, "platform">,
  input: { email: string | null; whatsapp: string | null },
): Promise<UserRow | undefined> {
  const contacts = [
    ...(input.email ? [eq(users.email, input.email)] : []),
    ...(input.whatsapp ? [and(eq(users.whatsapp, input.whatsapp), isNotNull(users.whatsappVerifiedAt))] : []),
  ];
  if (contacts.length === 0) {
    return undefined;
  }
  const matches = await ctx.platform
    .select()
    .from(users)
    .where(or(...contacts));
  return (
    matches.find((u) => input.whatsapp && u.whatsapp === input.whatsapp && u.whatsappVerifiedAt) ?? matches[0]
  );
}

/**
 * This community's invited member whose account carries `whatsapp` unproven and has never signed in
 * (issue 45): inviting the same number again reaches the account the first invitation made, not a
 * second account with the same number. Only accounts this community's own invitation made and nobody
 * has used are matched, never an unproven number across accounts (issue 44, P1).
 */
async function invitedByNumber(ctx: Pick<InvitingCtx, "platform" | "tenant">, whatsapp: string | null) {
  if (!whatsapp) {
    return undefined;
  }
  const row = await ctx.platform
    .select({ user: users })
    .from(memberships)
    .innerJoin(users, eq(users.id, memberships.userId))
    .where(
      and(
        eq(memberships.tenantId, ctx.tenant.id),
        eq(users.whatsapp, whatsapp),
        isNull(users.whatsappVerifiedAt),
        not(signedInSql(sql`${users.id}`, sql`${memberships.tenantId}`)),
      ),
    )
    .get();
  return row?.user;
}

/** Whether the account has a password or has opened a session in this community. */
export async function hasSignedIn(ctx: Pick<InvitingCtx, "platform" | "tenant">, userId: string) {
  const row = await ctx.platform
    .select({ id: users.id })
    .from(users)
    .where(and(eq(users.id, userId), signedInSql(sql`${users.id}`, sql`${ctx.tenant.id}`)))
    .get();
  return row !== undefined;
}

/**
 * A new set-password link for an account this community invited and nobody has used yet (issue 45):
 * the membership takes the newest invitation's duties, house and person, every earlier invitation and
 * reset link of the account is retired, and the link goes to the account's own contacts.
 */
function prepareReinvitation(ctx: InvitingCtx, account: UserRow, input: NewMember): Promise<PreparedAccount> {
  return resendInvitation(ctx, account, {
    roles: input.roles,
    membership: ctx.platform
      .update(memberships)
      .set({ roles: input.roles, unitId: input.unitId, personId: input.personId ?? null })
      .where(and(eq(memberships.userId, account.id), eq(memberships.tenantId, ctx.tenant.id))),
  });
}

/**
 * The re-sent set-password link (a resident's reset by staff, an invitation repeated, a contact added
 * to it): earlier invitations here and every set-password or reset link of the account retired, then
 * the new link stored, in the caller's batch; `send()` delivers it to `to` (the account's contacts
 * unless the caller names the one to use).
 */
export async function resendInvitation(
  ctx: InvitingCtx,
  account: Pick<UserRow, "id" | "name" | "email" | "whatsapp">,
  opts: { roles?: Duty[]; membership?: BatchItem<"sqlite">; to?: InvitationTarget } = {},
): Promise<PreparedAccount> {
  const to = opts.to ?? { name: account.name, email: account.email, whatsapp: account.whatsapp };
  const invitation = await newInvitationToken(ctx, {
    purpose: "invitation",
    userId: account.id,
    invitee: to,
  });
  return {
    userId: account.id,
    // Retiring first: the new token is not yet there to be retired with the old ones (this
    // community's invitations as replaced, then any other set-password or reset link of the account).
    statements: [
      invitation.retire,
      retireTokens(ctx, account.id, ["invitation", "password_reset"]),
      ...(opts.membership ? [opts.membership] : []),
      invitation.insert,
    ],
    send: () =>
      deliverInvitation(ctx, {
        target: to,
        token: invitation.token,
        ...(opts.roles ? { roles: opts.roles } : {}),
        idempotencyKey: `invitation:${invitation.id}`,
      }),
  };
}

/**
 * A resident membership in this tenant for the person named in an application (see `inviteMember`).
 */
export function createResidentAccount({
  ctx,
  input,
}: {
  ctx: TenantCtx;
  input: NewResident;
}): Promise<PreparedAccount> {
  return inviteMember({ ctx, input: { ...input, roles: [] } });
}

/**
 * A membership in this tenant for a named person, with the duties given. Without an account for the
 * email or number: a new account without a password, its membership and a set-password invitation.
 * With one: nothing is linked yet; the account holder is sent a "join this community?" link at the
 * account's own contact, and the membership (with its duties) exists once they accept it (join.ts):
 * nobody is enrolled on someone else's word. The caller's answer is then shaped as for a new account
 * (the channel the input implies), so the inviter learns neither that an account exists nor whose it
 * is. 409 `already_member` when the person is a member of this tenant already, 409 `person_taken` when
 * `personId` is already another account's person here (the unique index decides a race: `isPersonTaken`).
 */
export async function inviteMember({
  ctx,
  input,
}: {
  ctx: InvitingCtx;
  input: NewMember;
}): Promise<PreparedAccount> {
  const existing = (await accountByContact(ctx, input)) ?? (await invitedByNumber(ctx, input.whatsapp));
  const personId = input.personId ?? null;
  if (personId) {
    const holder = await ctx.platform
      .select({ userId: memberships.userId })
      .from(memberships)
      .where(and(eq(memberships.tenantId, ctx.tenant.id), eq(memberships.personId, personId)))
      .get();
    if (holder && holder.userId !== existing?.id) {
      throw personTaken();
    }
  }
  if (existing) {
    const member = await ctx.platform
      .select({ id: memberships.id })
      .from(memberships)
      .where(and(eq(memberships.userId, existing.id), eq(memberships.tenantId, ctx.tenant.id)))
      .get();
    if (member) {
      if (await hasSignedIn(ctx, existing.id)) {
        throw new Conflict("already_member", "This person already has an account in this community.");
      }
      // Invited here before and never signed in: the same account gets the newest link and duties.
      return prepareReinvitation(ctx, existing, input);
    }
    return prepareJoin(ctx, existing, input);
  }
  const userId = newId();
  const target = { name: input.fullName, email: input.email, whatsapp: input.whatsapp };
  const invitation = await newInvitationToken(ctx, { purpose: "invitation", userId, invitee: target });
  return {
    userId,
    statements: [
      ctx.platform.insert(memberships).values({
        id: newId(),
        userId,
        tenantId: ctx.tenant.id,
        roles: input.roles,
        unitId: input.unitId,
        personId,
      }),
      ctx.platform.insert(users).values({
        id: userId,
        email: input.email,
        name: input.fullName,
        whatsapp: input.whatsapp,
        passwordHash: null,
        updatedAt: ctx.now().toISOString(),
      }),
      invitation.insert,
    ],
    send: () =>
      deliverInvitation(ctx, {
        target,
        token: invitation.token,
        roles: input.roles,
        idempotencyKey: `invitation:${invitation.id}`,
      }),
  };
}

async function prepareJoin(ctx: InvitingCtx, account: UserRow, input: NewMember): Promise<PreparedAccount> {
  const join = await newInvitationToken(ctx, {
    purpose: "join",
    userId: account.id,
    invitee: { name: input.fullName, email: input.email, whatsapp: input.whatsapp },
    data: {
      tenantId: ctx.tenant.id,
      unitId: input.unitId,
      roles: input.roles,
      ...(input.personId ? { personId: input.personId } : {}),
    },
  });
  // The link goes to the account's own contact that the application named, never to a contact only
  // the applicant typed: an application with a victim's number and the applicant's email must not
  // hand the applicant the victim's link.
  const to =
    input.email && account.email === input.email
      ? { name: account.name, email: account.email, whatsapp: null }
      : { name: account.name, email: null, whatsapp: account.whatsapp };
  const shown = invitationChannel({ name: input.fullName, email: input.email, whatsapp: input.whatsapp });
  return {
    userId: null,
    statements: join.statements,
    send: async () => {
      const result = await deliverJoinLink(ctx, {
        target: to,
        token: join.token,
        roles: input.roles,
        idempotencyKey: `join:${join.id}`,
      });
      // The channel the inviter's input implies (issue 44: not whether an account exists), with why
      // nothing went when nothing did.
      return { ...result, channel: shown };
    },
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
    .where(and(eq(memberships.userId, id), eq(memberships.tenantId, ctx.tenant.id), residentSql))
    .get();
  if (!row) {
    throw new NotFound("Resident");
  }
  const { user } = row;
  if (!invitationChannel(user)) {
    throw new Conflict("no_contact", "This resident has neither an email nor a WhatsApp number.");
  }
  return resendInvitation(ctx, user);
}
