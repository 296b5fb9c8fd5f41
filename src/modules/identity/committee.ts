import { and, asc, eq, isNotNull, isNull, lte, or, type SQL, sql } from "drizzle-orm";
import { platformAudit } from "../../core/audit";
import { forgetMemberships, forgetSession } from "../../core/auth/liveness";
import type { Duty, TenantCtx } from "../../core/context";
import { abortBatchUnless, isBatchAborted } from "../../core/db/errors";
import { memberships, sessions, users } from "../../core/db/identity-schema";
import { afterCursor, keysetPage, type ListQuery } from "../../core/db/paging";
import { tenants } from "../../core/db/platform-schema";
import { Conflict, NotFound } from "../../core/errors";
import { phoneSearchDigits } from "../../core/phone";
import { isPersonTaken, personTaken } from "./accounts";
import { holdsDutySql, membershipStanding, residentSql, signedInSql } from "./duties";
import { retireInvitations } from "./oneTimeTokens";

/**
 * The committee's rules over `memberships` (issue 27): who is a member and with which duties, ending a
 * membership, and the account's link to its registry person. The members module composes these with the
 * tenant-side work (passes, letters, the registry); identity keeps the tables.
 */

export type MemberStatus = "aktif" | "diundang" | "nonaktif";

export interface MemberListInput extends ListQuery {
  /** A duty, or `warga` for residents (core/context.ts isResident). */
  role?: Duty | "warga";
  /** Text in the name, email or WhatsApp number. */
  q?: string;
  /**
   * Whether `q` may match the email and number: only for a caller who sees them whole. Matching what
   * the caller sees masked would tell them the hidden digits one search at a time (issue 44, P8).
   */
  searchContacts?: boolean;
}

/**
 * `diundang` until the member has signed in: a password set, or a session opened in this community
 * (issue 45: a member who only ever signs in by a code has no password, and is active all the same).
 */
const statusOf = (user: { status: "active" | "disabled"; signedIn: boolean }): MemberStatus =>
  user.status === "disabled" ? "nonaktif" : user.signedIn ? "aktif" : "diundang";

const memberColumns = {
  id: memberships.id,
  userId: users.id,
  name: users.name,
  email: users.email,
  whatsapp: users.whatsapp,
  roles: memberships.roles,
  unitId: memberships.unitId,
  personId: memberships.personId,
  signedIn: sql<boolean>`${signedInSql(sql`${users.id}`, sql`${memberships.tenantId}`)}`.mapWith(Boolean),
  userStatus: users.status,
  joinedAt: memberships.createdAt,
};

interface MemberRow {
  id: string;
  userId: string;
  name: string;
  email: string | null;
  whatsapp: string | null;
  roles: Duty[];
  unitId: string | null;
  personId: string | null;
  signedIn: boolean;
  userStatus: "active" | "disabled";
  joinedAt: string;
}

/** A member as the committee sees them: contact whole (the caller masks it for whom it must). */
function presentMember(row: MemberRow) {
  const { roles, resident } = membershipStanding(row);
  return {
    userId: row.userId,
    name: row.name,
    email: row.email,
    whatsapp: row.whatsapp,
    unitId: row.unitId,
    personId: row.personId,
    roles,
    resident,
    status: statusOf({ status: row.userStatus, signedIn: row.signedIn }),
    joinedAt: row.joinedAt,
  };
}
export type CommitteeMember = ReturnType<typeof presentMember>;

/** `%`, `_` and the escape itself taken literally in a LIKE pattern. */
const likePattern = (text: string) => `%${text.replace(/[\\%_]/g, (c) => `\\${c}`)}%`;

/**
 * What `q` matches: the text as typed, and a number typed as 08… also as stored (628…); in the name
 * only, unless the caller sees contacts whole.
 */
function textFilter(q: string, searchContacts: boolean): SQL {
  if (!searchContacts) {
    return sql`${users.name} LIKE ${likePattern(q)} ESCAPE '\\'`;
  }
  const patterns = [likePattern(q)];
  // `0812-3456`, `+62 812 3456` and `628123456` find the same stored `62812…` (ADR 0047).
  const digits = phoneSearchDigits(q);
  if (digits !== null) {
    patterns.push(likePattern(digits));
  }
  return or(
    ...patterns.flatMap((p) =>
      [users.name, users.email, users.whatsapp].map((column) => sql`${column} LIKE ${p} ESCAPE '\\'`),
    ),
  ) as SQL;
}

/** One page of the community's members, in the order they joined (the cursor is the membership id). */
export async function listMembers({ ctx, input }: { ctx: TenantCtx; input: MemberListInput }) {
  const filters: SQL[] = [
    eq(memberships.tenantId, ctx.tenant.id),
    ...afterCursor(memberships.id, input.cursor, "asc"),
    ...(input.role === "warga" ? [residentSql] : input.role ? [holdsDutySql(input.role)] : []),
    ...(input.q ? [textFilter(input.q, input.searchContacts ?? false)] : []),
  ];
  const rows = await ctx.platform
    .select(memberColumns)
    .from(memberships)
    .innerJoin(users, eq(users.id, memberships.userId))
    .where(and(...filters))
    .orderBy(asc(memberships.id))
    .limit(input.limit + 1);
  const page = keysetPage(rows, input.limit);
  return { items: page.items.map(presentMember), nextCursor: page.nextCursor };
}

async function memberRow(ctx: TenantCtx, userId: string): Promise<MemberRow | undefined> {
  return ctx.platform
    .select(memberColumns)
    .from(memberships)
    .innerJoin(users, eq(users.id, memberships.userId))
    .where(and(eq(memberships.userId, userId), eq(memberships.tenantId, ctx.tenant.id)))
    .get();
}

/** A member of this community by user id, or 404 (another community's member included). */
export async function getMember({ ctx, id }: { ctx: TenantCtx; id: string }): Promise<CommitteeMember> {
  const row = await memberRow(ctx, id);
  if (!row) {
    throw new NotFound("Member");
  }
  return presentMember(row);
}

async function requireMemberRow(ctx: TenantCtx, userId: string): Promise<MemberRow> {
  const row = await memberRow(ctx, userId);
  if (!row) {
    throw new NotFound("Member");
  }
  return row;
}

/**
 * Whether the community keeps an admin other than the membership `membershipId`: another membership
 * of the tenant holding `admin` whose account is not disabled and has signed in (an invited admin who
 * never accepted may never come: issue 44, P7). The same SQL guards the writes below, so the read that
 * refuses early and the write that decides a race agree.
 */
function otherAdminSql(tenantId: string, membershipId: string): SQL {
  return sql`EXISTS (
    SELECT 1 FROM ${memberships} AS other
    JOIN ${users} AS account ON account.id = other.user_id AND account.status = 'active'
    WHERE other.tenant_id = ${tenantId} AND other.id <> ${membershipId}
      AND EXISTS (SELECT 1 FROM json_each(other.roles) WHERE json_each.value = 'admin')
      AND ${signedInSql(sql`account.id`, sql`other.tenant_id`)})`;
}

/** For a write that takes `admin` away from the membership: it holds no `admin`, or another admin remains. */
function keepsAnAdmin(tenantId: string, membershipId: string): SQL {
  return or(sql`NOT ${holdsDutySql("admin")}`, otherAdminSql(tenantId, membershipId)) as SQL;
}

async function hasOtherAdmin(ctx: TenantCtx, membershipId: string): Promise<boolean> {
  const row = await ctx.platform
    .select({ yes: sql<number>`${otherAdminSql(ctx.tenant.id, membershipId)}` })
    .from(sql`(SELECT 1)`)
    .get();
  return Boolean(row?.yes);
}

const lastAdmin = () =>
  new Conflict("last_admin", "The community must keep an admin: appoint another admin first.");

/**
 * Ends every sign-in of the user in this community; its RETURNING names the families this isolate
 * forgets at once (`forgetSession`), so the old access token is refused on its very next request here,
 * and within the liveness cache's few seconds elsewhere.
 */
function revokeSessionsIn(ctx: TenantCtx, userId: string) {
  return ctx.platform
    .update(sessions)
    .set({ revokedAt: ctx.now().toISOString() })
    .where(and(eq(sessions.userId, userId), eq(sessions.tenantId, ctx.tenant.id), isNull(sessions.revokedAt)))
    .returning({ familyId: sessions.familyId });
}

function forgetFamilies(revoked: readonly { familyId: string }[]) {
  for (const familyId of new Set(revoked.map((r) => r.familyId))) {
    forgetSession(familyId);
  }
}

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

/** How long a moved-out member may still sign in for their own data (issue 45): 30 days. */
export const MOVE_OUT_GRACE_DAYS = 30;

/**
 * Ends, in one platform batch, the memberships of a family that moved out (issue 45): every member of
 * this community linked to one of `personIds`, and, when the family left its unit empty, every member
 * whose house is `emptiedUnitId`. Each keeps its row with no duty, no house and `graceUntil` set
 * (MOVE_OUT_GRACE_DAYS on), so the person can still sign in for their own data export until the hourly
 * job deletes it; their sign-ins here end now, as a removal's do. Idempotent: a membership already in
 * its grace period is left as it is, so the registry's move-out can be repeated after a failure.
 * 409 `last_admin` when it would take the community's only admin.
 */
export async function endMembershipsOnMoveOut({
  ctx,
  personIds,
  emptiedUnitId,
}: {
  ctx: TenantCtx;
  personIds: readonly string[];
  emptiedUnitId: string | null;
}): Promise<string[]> {
  const who = or(
    ...(personIds.length > 0
      ? [sql`${memberships.personId} IN (SELECT value FROM json_each(${JSON.stringify(personIds)}))`]
      : []),
    ...(emptiedUnitId ? [eq(memberships.unitId, emptiedUnitId)] : []),
  );
  if (!who) {
    return [];
  }
  const rows = await ctx.platform
    .select({
      id: memberships.id,
      userId: memberships.userId,
      roles: memberships.roles,
      unitId: memberships.unitId,
    })
    .from(memberships)
    .where(and(eq(memberships.tenantId, ctx.tenant.id), isNull(memberships.graceUntil), who));
  if (rows.length === 0) {
    return [];
  }
  const graceUntil = new Date(ctx.now().getTime() + MOVE_OUT_GRACE_DAYS * 86_400_000).toISOString();
  const statements = rows.flatMap((row) => [
    ctx.platform
      .update(memberships)
      .set({ roles: [], unitId: null, graceUntil })
      .where(and(eq(memberships.id, row.id), keepsAnAdmin(ctx.tenant.id, row.id))),
    abortBatchUnless(ctx.platform, tenants, ctx.tenant.id, sql`changes() = 1`),
    revokeSessionsIn(ctx, row.userId),
    retireInvitations(ctx, { tenantId: ctx.tenant.id, userId: row.userId, reason: "removed" }),
    platformAudit(ctx, {
      action: "member.move_out",
      targetType: "user",
      targetId: row.userId,
      detail: { roles: row.roles, unitId: row.unitId, graceUntil },
    }),
  ]);
  try {
    const results = (await ctx.platform.batch(
      statements as unknown as Parameters<typeof ctx.platform.batch>[0],
    )) as readonly unknown[];
    forgetFamilies(results.filter((_, i) => i % 5 === 2).flat() as { familyId: string }[]);
  } catch (error) {
    if (isBatchAborted(error)) {
      throw lastAdmin();
    }
    throw error;
  }
  return rows.map((row) => row.userId);
}

/** Deletes the memberships whose move-out grace period (issue 45) has run out; hourly. */
export async function endMoveOutGrace(ctx: { platform: TenantCtx["platform"] }, now: Date) {
  const gone = await ctx.platform
    .delete(memberships)
    .where(and(isNotNull(memberships.graceUntil), lte(memberships.graceUntil, now.toISOString())))
    .returning({ id: memberships.id });
  return { ended: gone.length };
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
