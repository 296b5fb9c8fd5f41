import { and, asc, eq, or, type SQL, sql } from "drizzle-orm";
import type { Duty, TenantCtx } from "../../core/context";
import { memberships, users } from "../../core/db/identity-schema";
import { afterCursor, keysetPage, type ListQuery } from "../../core/db/paging";
import { NotFound } from "../../core/errors";
import { phoneSearchDigits } from "../../core/phone";
import { holdsDutySql, membershipStanding, residentSql, signedInSql } from "./duties";

/**
 * The committee's list of members (issue 27): who is a member, with which duties and status, found by
 * duty or by text; one member read. The writes are in committee.ts and moveOut.ts.
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

export interface MemberRow {
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
export function presentMember(row: MemberRow) {
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

export async function memberRow(ctx: TenantCtx, userId: string): Promise<MemberRow | undefined> {
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

export async function requireMemberRow(ctx: TenantCtx, userId: string): Promise<MemberRow> {
  const row = await memberRow(ctx, userId);
  if (!row) {
    throw new NotFound("Member");
  }
  return row;
}
