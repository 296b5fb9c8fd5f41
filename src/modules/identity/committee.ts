import { and, eq, sql } from "drizzle-orm";
import { platformAudit } from "../../core/audit";
import { forgetMemberships } from "../../core/auth/liveness";
import type { Duty, TenantCtx } from "../../core/context";
import { abortBatchUnless, isBatchAborted } from "../../core/db/errors";
import { memberships } from "../../core/db/identity-schema";
import { tenants } from "../../core/db/platform-schema";
import { Conflict, NotFound } from "../../core/errors";
import { isPersonTaken, personTaken } from "./accountConflicts";
import { forgetFamilies, hasOtherAdmin, keepsAnAdmin, lastAdmin, revokeSessionsIn } from "./memberGuards";
import { type CommitteeMember, getMember, presentMember, requireMemberRow } from "./memberList";
import { retireInvitations } from "./oneTimeTokens";

/**
 * The committee's rules over `memberships` (issue 27): who is a member and with which duties, ending a
 * membership, and the account's link to its registry person. The members module composes these with the
 * tenant-side work (passes, letters, the registry); identity keeps the tables.
 */

const sameDuties = (a: readonly Duty[], b: readonly Duty[]) =>
  a.length === b.length && a.every((duty) => b.includes(duty));

/**
 * Sets a member's duties. 409 `last_admin` when it would leave the community without an admin, 409
 * `not_resident` when it would leave someone with no duty and no house (remove them instead). Two admins
 * demoting each other at once: each UPDATE only applies while another admin remains, and D1 runs one
 * batch at a time, so the second finds no other admin, changes nothing, and its guard aborts its batch
 * (audit record included). Either way the member's next request is served with the duties as they now
 * stand, without signing in again (the feed of changed memberships, ADR 0043): a duty taken away is
 * refused there, a duty given is allowed there.
 */
export async function setMemberRoles({
  ctx,
  id,
  input,
}: {
  ctx: TenantCtx;
  id: string;
  input: { roles: Duty[] };
}): Promise<CommitteeMember> {
  const current = await requireMemberRow(ctx, id);
  const roles = input.roles;
  if (sameDuties(current.roles, roles)) {
    return presentMember(current);
  }
  if (roles.length === 0 && current.unitId === null) {
    throw new Conflict(
      "not_resident",
      "This member has no house in the community: without a duty they would not belong here. Remove the member instead.",
    );
  }
  const losesAdmin = current.roles.includes("admin") && !roles.includes("admin");
  if (losesAdmin && !(await hasOtherAdmin(ctx, current.id))) {
    throw lastAdmin();
  }
  // Decided on the row as it stands, not as read: whoever holds `admin` then keeps it unless another
  // admin remains.
  const update = ctx.platform
    .update(memberships)
    .set({ roles })
    .where(
      and(
        eq(memberships.id, current.id),
        ...(roles.includes("admin") ? [] : [keepsAnAdmin(ctx.tenant.id, current.id)]),
      ),
    );
  // `changes()` is the UPDATE's row count: 0 when the admin rule (or a removal meanwhile) stopped it.
  const guard = abortBatchUnless(ctx.platform, memberships, current.id, sql`changes() = 1`);
  const record = platformAudit(ctx, {
    action: "member.roles",
    targetType: "user",
    targetId: id,
    detail: { from: current.roles, to: roles },
  });
  try {
    await ctx.platform.batch([update, guard, record]);
    forgetMemberships();
  } catch (error) {
    if (isBatchAborted(error)) {
      await requireMemberRow(ctx, id);
      throw lastAdmin();
    }
    throw error;
  }
  return getMember({ ctx, id });
}

/**
 * The first half of removing a member, before the tenant-side clean-up: 404 for someone who is not a
 * member here, 409 `last_admin` for the only admin (a read; `endMembership` decides it again atomically).
 */
export async function checkRemovable({ ctx, id }: { ctx: TenantCtx; id: string }): Promise<CommitteeMember> {
  const row = await requireMemberRow(ctx, id);
  if (row.roles.includes("admin") && !(await hasOtherAdmin(ctx, row.id))) {
    throw lastAdmin();
  }
  return presentMember(row);
}

/**
 * Ends a membership: the row is deleted (so the person can be invited again), every sign-in of theirs
 * in this community is revoked, their unused invitation and join links here are retired, and the audit
 * record lands, in one batch. The DELETE of an admin only
 * applies while another admin remains; the guard after it aborts the batch when it deleted nothing (the
 * last admin, or removed meanwhile). The guard stands on the tenant's row, since the membership's is
 * gone once the DELETE applied. The member's other communities are not touched.
 */
export async function endMembership({ ctx, id }: { ctx: TenantCtx; id: string }) {
  const row = await requireMemberRow(ctx, id);
  const deletion = ctx.platform
    .delete(memberships)
    .where(and(eq(memberships.id, row.id), keepsAnAdmin(ctx.tenant.id, row.id)));
  const guard = abortBatchUnless(ctx.platform, tenants, ctx.tenant.id, sql`changes() = 1`);
  try {
    const [, , revoked] = await ctx.platform.batch([
      deletion,
      guard,
      revokeSessionsIn(ctx, id),
      // An unused invitation or join link would bring them back with what it carried (issue 44, P3).
      retireInvitations(ctx, { tenantId: ctx.tenant.id, userId: id, reason: "removed" }),
      platformAudit(ctx, {
        action: "member.remove",
        targetType: "user",
        targetId: id,
        detail: { roles: row.roles, unitId: row.unitId, personId: row.personId },
      }),
    ]);
    forgetFamilies(revoked);
    forgetMemberships();
  } catch (error) {
    if (isBatchAborted(error)) {
      await requireMemberRow(ctx, id);
      throw lastAdmin();
    }
    throw error;
  }
}

/**
 * Links a member's account to their own person in the registry (`personId`, already checked against
 * the registry by the caller), or unlinks it with null. One account per person per community: the
 * unique index decides a race, and 409 `person_taken` answers it.
 */
export async function setMemberPerson({
  ctx,
  id,
  personId,
  override = false,
}: {
  ctx: TenantCtx;
  id: string;
  personId: string | null;
  /** An admin linked a person who is not on a card of the member's house (issue 44): recorded. */
  override?: boolean;
}): Promise<CommitteeMember> {
  const current = await requireMemberRow(ctx, id);
  if (current.personId === personId) {
    return presentMember(current);
  }
  try {
    await ctx.platform.batch([
      ctx.platform.update(memberships).set({ personId }).where(eq(memberships.id, current.id)),
      abortBatchUnless(ctx.platform, memberships, current.id, sql`changes() = 1`),
      platformAudit(ctx, {
        action: personId ? "member.person_link" : "member.person_unlink",
        targetType: "user",
        targetId: id,
        detail: { from: current.personId, to: personId, ...(override ? { override: true } : {}) },
      }),
    ]);
  } catch (error) {
    if (isPersonTaken(error)) {
      throw personTaken();
    }
    if (isBatchAborted(error)) {
      throw new NotFound("Member");
    }
    throw error;
  }
  return getMember({ ctx, id });
}

/**
 * Sets the house a member lives at (issue 44: a house is granted by staff, never claimed): the
 * secretariat's direct edit, or an accepted `rumah` request (`via`). The unit was checked against the
 * registry by the caller, and so was `keepPerson`: whether the member's linked person is on a card at
 * the new house; otherwise the link goes with the old house (a person link is always one of the
 * member's own household). Null moves a member out of the registry's houses: only one who keeps a duty
 * (409 `not_resident`, as for duties). Audited; the residency that follows stands on the member's next
 * request (ADR 0043), and a member who set their own house gets a token saying so in this answer.
 */
export async function setMemberUnit({
  ctx,
  id,
  unitId,
  keepPerson,
  via,
}: {
  ctx: TenantCtx;
  id: string;
  unitId: string | null;
  keepPerson: boolean;
  via: "staff" | "request";
}): Promise<CommitteeMember> {
  const current = await requireMemberRow(ctx, id);
  if (current.unitId === unitId) {
    return presentMember(current);
  }
  if (unitId === null && current.roles.length === 0) {
    throw new Conflict(
      "not_resident",
      "This member has no duty: without a house they would not belong here. Remove the member instead.",
    );
  }
  const personId = keepPerson ? current.personId : null;
  try {
    await ctx.platform.batch([
      ctx.platform.update(memberships).set({ unitId, personId }).where(eq(memberships.id, current.id)),
      abortBatchUnless(ctx.platform, memberships, current.id, sql`changes() = 1`),
      platformAudit(ctx, {
        action: "member.unit",
        targetType: "user",
        targetId: id,
        detail: { from: current.unitId, to: unitId, via, personUnlinked: current.personId !== personId },
      }),
    ]);
    forgetMemberships();
  } catch (error) {
    if (isBatchAborted(error)) {
      throw new NotFound("Member");
    }
    throw error;
  }
  return getMember({ ctx, id });
}
