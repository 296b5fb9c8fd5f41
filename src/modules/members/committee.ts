import { platformAudit } from "../../core/audit";
import type { TenantCtx } from "../../core/context";
import type { ListQuery } from "../../core/db/paging";
import { Conflict, Forbidden, NotFound } from "../../core/errors";
import { hasRole, ROLES, requireUser } from "../../core/http/access";
import {
  type CommitteeMember,
  checkRemovable,
  endMembership,
  getMember,
  inviteMember,
  isAccountConflict,
  isPersonTaken,
  listMembers as listCommittee,
  listPendingInvitations,
  maskEmail,
  maskWhatsapp,
  personTaken,
  revokeInvitation,
  setInvitationContact,
  setMemberPerson,
  setMemberRoles,
  setMemberUnit,
  userNames,
} from "../identity/service";
import { isPersonAt, personById, unitsByIds } from "../kependudukan/service";
import { cancelLettersOf } from "../surat/service";
import { revokePassesOf } from "../visitor/service";
import { memberRateLimit as rateLimit } from "./limits";
import type {
  InvitationContactInput,
  InvitationInput,
  MemberListQuery,
  PersonInput,
  RolesInput,
  UnitInput,
} from "./schemas";

/**
 * The committee (issue 27): who belongs to the community and with which duties. Memberships are
 * identity's; this module composes its verbs with the registry (houses, persons) and with what a member
 * leaves behind in the tenant's own database (guest passes, letter requests).
 */

type Units = Map<string, { id: string; block: string; number: string }>;

/** Contact whole for the admin, masked for other staff (the treasurer has no need to phone anyone). */
function present(ctx: TenantCtx, member: CommitteeMember, units: Units) {
  const whole = hasRole(ctx, ROLES.ADMIN);
  return {
    userId: member.userId,
    name: member.name,
    email: member.email && !whole ? maskEmail(member.email) : member.email,
    whatsapp: member.whatsapp && !whole ? maskWhatsapp(member.whatsapp) : member.whatsapp,
    unitId: member.unitId,
    unit: member.unitId ? (units.get(member.unitId) ?? null) : null,
    personId: member.personId,
    roles: member.roles,
    resident: member.resident,
    status: member.status,
    joinedAt: member.joinedAt,
  };
}

async function presentOne(ctx: TenantCtx, member: CommitteeMember) {
  return present(ctx, member, await unitsByIds({ ctx, ids: member.unitId ? [member.unitId] : [] }));
}

export async function listMembers({ ctx, input }: { ctx: TenantCtx; input: MemberListQuery }) {
  const page = await listCommittee({ ctx, input: { ...input, searchContacts: hasRole(ctx, ROLES.ADMIN) } });
  const units = await unitsByIds({ ctx, ids: page.items.flatMap((m) => (m.unitId ? [m.unitId] : [])) });
  return { items: page.items.map((m) => present(ctx, m, units)), nextCursor: page.nextCursor };
}

/** One member of this community by user id, as the list shows them; 404 for anyone else's. */
export async function showMember({ ctx, id }: { ctx: TenantCtx; id: string }) {
  return presentOne(ctx, await getMember({ ctx, id }));
}

export async function changeRoles({ ctx, id, input }: { ctx: TenantCtx; id: string; input: RolesInput }) {
  return presentOne(ctx, await setMemberRoles({ ctx, id, input }));
}

/**
 * Invites an officer, a guard or a resident (identity's `inviteMember`: a set-password link for a new
 * account, a join link for an existing one, never a silent enrolment). The answer names the channel and
 * whether it was sent, never a token, and says nothing about whether an account existed.
 */
export async function inviteToCommunity({ ctx, input }: { ctx: TenantCtx; input: InvitationInput }) {
  await rateLimit(ctx.env, [{ policy: "member-invitation:admin", subject: requireUser(ctx).userId }]);
  const unitId = input.unitId ?? null;
  if (unitId && !(await unitsByIds({ ctx, ids: [unitId] })).has(unitId)) {
    throw new NotFound("Unit", "unit_not_found");
  }
  const prepared = await inviteMember({
    ctx,
    input: {
      fullName: input.name,
      email: input.email ?? null,
      whatsapp: input.whatsapp ?? null,
      unitId,
      roles: input.roles,
    },
  });
  try {
    await ctx.platform.batch([
      ...prepared.statements,
      // userId is null while an existing account's holder has not accepted the join link: the record
      // says no more than the answer does.
      platformAudit(ctx, {
        action: "member.invite",
        targetType: "user",
        targetId: prepared.userId,
        detail: { roles: input.roles, unitId },
      }),
    ]);
  } catch (error) {
    if (isPersonTaken(error)) {
      throw personTaken();
    }
    if (isAccountConflict(error)) {
      throw new Conflict("account_conflict", "An account with this email or number was created meanwhile.");
    }
    throw error;
  }
  return { invitation: await prepared.send() };
}

/**
 * The community's pending invitations (issue 44): who (name, contact masked), which duties, sent by
 * whom, by which channel, until when. Newest first.
 */
export async function listInvitations({ ctx, input }: { ctx: TenantCtx; input: ListQuery }) {
  const page = await listPendingInvitations({ ctx, input });
  const senders = await userNames({
    ctx,
    ids: page.items.flatMap((i) => (i.invitedBy ? [i.invitedBy] : [])),
  });
  return {
    items: page.items.map(({ invitedBy, ...invitation }) => ({
      ...invitation,
      email: invitation.email ? maskEmail(invitation.email) : null,
      whatsapp: invitation.whatsapp ? maskWhatsapp(invitation.whatsapp) : null,
      sentBy:
        invitedBy && senders.has(invitedBy)
          ? { userId: invitedBy, name: senders.get(invitedBy) ?? "" }
          : null,
    })),
    nextCursor: page.nextCursor,
  };
}

/**
 * Adds or replaces the email or number of an invited member who has not signed in yet, and re-sends
 * the invitation through it (issue 45; identity's `setInvitationContact`). Limited as invitations are,
 * audited without the contact; the answer is the invitation outcome inviting gives.
 */
export async function changeInvitationContact({
  ctx,
  id,
  input,
}: {
  ctx: TenantCtx;
  id: string;
  input: InvitationContactInput;
}) {
  await rateLimit(ctx.env, [{ policy: "member-invitation:admin", subject: requireUser(ctx).userId }]);
  const prepared = await setInvitationContact(ctx, { id, ...input });
  try {
    await ctx.platform.batch([
      ...prepared.statements,
      platformAudit(ctx, {
        action: "member.invitation_contact",
        targetType: "user",
        targetId: prepared.userId,
        detail: { invitationId: id, channel: input.email ? "email" : "whatsapp" },
      }),
    ]);
  } catch (error) {
    if (isAccountConflict(error)) {
      throw new Conflict(
        "account_conflict",
        "Another account has this email: invite the person by it instead.",
      );
    }
    throw error;
  }
  return { invitation: await prepared.send() };
}

/** Revokes a pending invitation of this community (identity's `revokeInvitation`; audited). */
export async function withdrawInvitation({ ctx, id }: { ctx: TenantCtx; id: string }) {
  await revokeInvitation({ ctx, id });
}

/**
 * Removes a member (moved out, stepped down, left). Refused early: 404 for someone not a member here,
 * 409 `last_admin` for the only admin. Then what they leave in the tenant's own database, idempotent
 * so a retry after a failure below is harmless: waiting guest requests and unused passes revoked,
 * unfinished letter requests cancelled. Registry records stay (the registry's mutasi is its own
 * record). Last, identity's one platform batch: the membership deleted (guarded again, atomically, for
 * the last admin), their sessions here revoked, the audit record.
 */
export async function removeMember({ ctx, id }: { ctx: TenantCtx; id: string }) {
  await checkRemovable({ ctx, id });
  await revokePassesOf({ ctx, userId: id });
  await cancelLettersOf({ ctx, userId: id });
  await endMembership({ ctx, id });
}

/**
 * Links a member's account to their own person on a family card of this registry, or unlinks it. The
 * person must be on a card of the member's house (issue 44, P11: the link decides whose identity prints
 * on the member's own letters and fills their data export): 409 `person_not_in_household` otherwise,
 * unless an admin says `override` (403 for anyone else), which the audit record keeps.
 */
export async function linkPerson({ ctx, id, input }: { ctx: TenantCtx; id: string; input: PersonInput }) {
  if (input.personId === null) {
    return presentOne(ctx, await setMemberPerson({ ctx, id, personId: null }));
  }
  const person = await personById({ ctx, id: input.personId });
  if (!person) {
    throw new NotFound("Person", "person_not_found");
  }
  const member = await getMember({ ctx, id });
  const own = member.unitId !== null && person.unitId === member.unitId;
  if (!own) {
    if (!input.override) {
      throw new Conflict(
        "person_not_in_household",
        "This person is not on a family card of the member's house. Set the member's house first.",
      );
    }
    if (!hasRole(ctx, ROLES.ADMIN)) {
      throw new Forbidden("forbidden", "Only an admin may link a person of another household.");
    }
  }
  return presentOne(ctx, await setMemberPerson({ ctx, id, personId: input.personId, override: !own }));
}

/**
 * The secretariat sets the house a member lives at (issue 44: a house is granted by staff, never
 * claimed by the resident). The unit must be the registry's (404 `unit_not_found`); the member's person
 * link stays only if that person is on a card of the new house. Audited by identity.
 */
export async function setUnit({ ctx, id, input }: { ctx: TenantCtx; id: string; input: UnitInput }) {
  const member = await getMember({ ctx, id });
  if (input.unitId !== null && !(await unitsByIds({ ctx, ids: [input.unitId] })).has(input.unitId)) {
    throw new NotFound("Unit", "unit_not_found");
  }
  const keepPerson = await isPersonAt({ ctx, personId: member.personId, unitId: input.unitId });
  return presentOne(ctx, await setMemberUnit({ ctx, id, unitId: input.unitId, keepPerson, via: "staff" }));
}
