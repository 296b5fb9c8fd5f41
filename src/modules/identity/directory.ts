import { and, asc, eq, inArray, sql } from "drizzle-orm";
import { keepNames, knownNames } from "../../core/auth/liveness";
import type { PlatformCtx, TenantCtx } from "../../core/context";
import { memberships, users } from "../../core/db/identity-schema";
import { inList } from "../../core/db/lists";
import { afterCursor, keysetPage, type ListQuery } from "../../core/db/paging";
import { tenants } from "../../core/db/platform-schema";
import { preparedOnce } from "../../core/db/prepared";
import { Conflict, Forbidden, NotFound } from "../../core/errors";
import { requireUser } from "../../core/http/access";
import { tokenTenantCtx } from "../../core/tenancy/contexts";
import { memberTenantCtx } from "../../core/tenancy/member";
import { versioned } from "../../platform/conditional";
import { holdsAnyDutySql, holdsDutySql, membershipStanding, residentSql } from "./duties";

/**
 * Identity owns users, memberships and one-time tokens; other modules reach them only through the
 * verbs service.ts re-exports: this file's (who is a member, the caller's own profile, names and
 * contacts) and its neighbours'. The sign-in flows live beside it: sessions.ts (login, refresh, logout, switch),
 * magicLink.ts, passwordReset.ts, oauth/, profile.ts. Nothing here reads a tenant's own database, so
 * modules that do (kependudukan) may depend on identity without a cycle: routes compose the two.
 */

export type TenantRow = typeof tenants.$inferSelect;
export type UserRow = typeof users.$inferSelect;
export const tenantRef = (t: TenantRow) => ({ slug: t.slug, name: t.name, type: t.type });

/**
 * A membership as a versioned resource at `path` (ETag and If-Match, platform/conditional, ADR
 * 0035): the row of `memberships` named by the path's `:userId`, in the platform database, matched to
 * the caller's community, so another community's member is not there (404, no ETag).
 */
export function versionedMembership(path: string) {
  return versioned(
    path,
    memberships,
    { param: "userId", key: memberships.userId },
    { database: "platform", tenantColumn: memberships.tenantId },
  );
}

const MEMBERSHIPS_OF = Symbol("membershipsOf");

/** Every membership of a user (`id`), with its tenant, oldest first: where a sign-in lands by default. */
export async function membershipsOf({ ctx, id }: { ctx: PlatformCtx; id: string }) {
  const query = preparedOnce(ctx.platform, MEMBERSHIPS_OF, (db) =>
    db
      .select({ membership: memberships, tenant: tenants })
      .from(memberships)
      .innerJoin(tenants, eq(tenants.id, memberships.tenantId))
      .where(eq(memberships.userId, sql.placeholder("userId")))
      .orderBy(asc(memberships.createdAt), asc(memberships.id))
      .prepare(),
  );
  return query.all({ userId: id });
}

/**
 * A context in one of the signed-in user's own communities: the one way identity's user routes reach a
 * community's database. Without `own`, the community the access token names (the token's roles stand);
 * with one (a row of `membershipsOf` for this user), that community, acting with the membership's
 * standing. Null while the community is suspended: its database is closed to every request, but the
 * account and its memberships are the person's own.
 */
export async function ownCommunityCtx({
  ctx,
  own,
}: {
  ctx: PlatformCtx;
  own?: { membership: typeof memberships.$inferSelect; tenant: TenantRow };
}): Promise<TenantCtx | null> {
  try {
    return own
      ? await memberTenantCtx(ctx, {
          userId: own.membership.userId,
          tenantSlug: own.tenant.slug,
          roles: membershipStanding(own.membership).effective,
        })
      : await tokenTenantCtx(ctx);
  } catch (error) {
    if (error instanceof Forbidden) {
      return null;
    }
    throw error;
  }
}

/** A profile is complete exactly when the name, the WhatsApp number and the housing unit are set. */
export function isProfileComplete(user: Pick<UserRow, "name" | "whatsapp">, unitId: string | null): boolean {
  return Boolean(user.name.trim() && user.whatsapp && unitId);
}

/**
 * The caller's account, current tenant and role, and memberships. The housing unit is only its id:
 * the unit itself lives in the tenant's database, which the route (or profile.ts) reads through
 * kependudukan with a tenant context.
 */
export async function me({ ctx }: { ctx: PlatformCtx }) {
  const actor = requireUser(ctx);
  const { user, all } = await userWithMemberships(ctx, actor.userId);
  if (!user) {
    throw new NotFound("User");
  }
  const current = actor.tenantSlug ? all.find((m) => m.tenant.slug === actor.tenantSlug) : undefined;
  const unitId = current?.membership.unitId ?? null;
  return {
    id: user.id,
    name: user.name,
    email: user.email,
    whatsapp: user.whatsapp,
    emailVerified: user.emailVerifiedAt !== null,
    hasPassword: user.passwordHash !== null,
    whatsappVerified: user.whatsappVerifiedAt !== null,
    ...(current
      ? standingOf(current.membership)
      : { roles: actor.roles.filter((r) => r === "super_admin"), resident: false }),
    tenant: current ? tenantRef(current.tenant) : null,
    unitId,
    personId: current?.membership.personId ?? null,
    profileComplete: isProfileComplete(user, unitId),
    memberships: all.map((m) => ({ tenant: tenantRef(m.tenant), ...standingOf(m.membership) })),
  };
}

const USER_WITH_MEMBERSHIPS = Symbol("userWithMemberships");

/**
 * The account and every membership with its tenant (oldest first, as `membershipsOf`), in one round
 * trip: the profile read of every app start. An account with no membership is one row with nulls.
 */
async function userWithMemberships(ctx: PlatformCtx, userId: string) {
  const query = preparedOnce(ctx.platform, USER_WITH_MEMBERSHIPS, (db) =>
    db
      .select({ user: users, membership: memberships, tenant: tenants })
      .from(users)
      .leftJoin(memberships, eq(memberships.userId, users.id))
      .leftJoin(tenants, eq(tenants.id, memberships.tenantId))
      .where(eq(users.id, sql.placeholder("userId")))
      .orderBy(asc(memberships.createdAt), asc(memberships.id))
      .prepare(),
  );
  const rows = await query.all({ userId });
  const all = rows.flatMap(({ membership, tenant }) =>
    membership && tenant ? [{ membership, tenant }] : [],
  );
  return { user: rows[0]?.user ?? null, all };
}

/** A membership's duties and residency, as answers show them. */
function standingOf(m: { roles: (typeof memberships.$inferSelect)["roles"]; unitId: string | null }) {
  const { roles, resident } = membershipStanding(m);
  return { roles, resident };
}

/**
 * For modules that act per household (dues, household polls, letters, visitors): the caller's unit in
 * this tenant, or 409 `profile_incomplete` until the resident has completed their profile; with it the
 * caller's own registry person (`personId`, a family-card member id of this tenant) when their account
 * is linked to one, else null. Who the caller is in the registry comes from that link, never a name.
 */
export async function requireCompleteProfile({ ctx }: { ctx: TenantCtx }) {
  const actor = requireUser(ctx);
  const row = await ctx.platform
    .select({
      name: users.name,
      whatsapp: users.whatsapp,
      unitId: memberships.unitId,
      personId: memberships.personId,
    })
    .from(memberships)
    .innerJoin(users, eq(users.id, memberships.userId))
    .where(and(eq(memberships.userId, actor.userId), eq(memberships.tenantId, ctx.tenant.id)))
    .get();
  if (!row?.unitId || !isProfileComplete(row, row.unitId)) {
    throw new Conflict(
      "profile_incomplete",
      "Complete your profile (full name, WhatsApp number, block and house number) first.",
    );
  }
  return { unitId: row.unitId, personId: row.personId };
}

/** The caller's membership in this tenant (role and housing unit), or null. */
export async function membershipIn({ ctx }: { ctx: TenantCtx }) {
  const actor = requireUser(ctx);
  return (
    (await ctx.platform
      .select()
      .from(memberships)
      .where(and(eq(memberships.userId, actor.userId), eq(memberships.tenantId, ctx.tenant.id)))
      .get()) ?? null
  );
}

/**
 * The caller's house in the request's community, or null: as the access guard served the request (the
 * token's `unit`, or the membership's newer version from the feed, ADR 0043), so a resident's own pages
 * make no read of the platform database for it; read from the membership when the token does not say.
 * The same bound as duties: a house changed by another isolate stands within the feed's few seconds.
 */
export async function callerUnitId({ ctx }: { ctx: TenantCtx }): Promise<string | null> {
  const actor = requireUser(ctx);
  // The token's house is in the token's community; a context of another one (an RW's view of its RT)
  // reads the membership there.
  if (actor.unitId !== undefined && actor.tenantSlug === ctx.tenant.slug) {
    return actor.unitId;
  }
  return (await membershipIn({ ctx }))?.unitId ?? null;
}

/** Resident accounts of the tenant with their housing units (eligible voters, household counts). */
export async function residentsOf({ ctx }: { ctx: TenantCtx }) {
  return ctx.platform
    .select({ userId: memberships.userId, unitId: memberships.unitId })
    .from(memberships)
    .where(and(eq(memberships.tenantId, ctx.tenant.id), residentSql));
}

/** How many resident accounts of the tenant live at one unit (the registry refuses to delete it then). */
export async function residentsAtUnit({ ctx, unitId }: { ctx: TenantCtx; unitId: string }) {
  return ctx.platform.$count(
    memberships,
    and(eq(memberships.tenantId, ctx.tenant.id), eq(memberships.unitId, unitId)),
  );
}

/**
 * One page of the tenant's resident accounts, in the order they joined (the cursor is the membership
 * id). `unitId` is the house in the tenant's registry; the caller reads the unit itself there.
 */
export async function listResidentAccounts({ ctx, input }: { ctx: TenantCtx; input: ListQuery }) {
  const rows = await ctx.platform
    .select({
      id: memberships.id,
      userId: users.id,
      name: users.name,
      email: users.email,
      whatsapp: users.whatsapp,
      passwordHash: users.passwordHash,
      unitId: memberships.unitId,
      joinedAt: memberships.createdAt,
    })
    .from(memberships)
    .innerJoin(users, eq(users.id, memberships.userId))
    .where(
      and(
        eq(memberships.tenantId, ctx.tenant.id),
        residentSql,
        ...afterCursor(memberships.id, input.cursor, "asc"),
      ),
    )
    .orderBy(asc(memberships.id))
    .limit(input.limit + 1);
  const page = keysetPage(rows, input.limit);
  return {
    items: page.items.map(({ passwordHash, ...account }) => ({
      ...account,
      hasPassword: passwordHash !== null,
    })),
    nextCursor: page.nextCursor,
  };
}

// D1 allows 100 bound parameters per statement.
const IN_CHUNK = 90;

async function usersByIds(ctx: PlatformCtx, ids: readonly string[]) {
  const unique = [...new Set(ids)];
  const found: { id: string; name: string; email: string | null; whatsapp: string | null }[] = [];
  for (let i = 0; i < unique.length; i += IN_CHUNK) {
    found.push(
      ...(await ctx.platform
        .select({ id: users.id, name: users.name, email: users.email, whatsapp: users.whatsapp })
        .from(users)
        .where(inArray(users.id, unique.slice(i, i + IN_CHUNK)))),
    );
  }
  return found;
}

/**
 * Display names of users, for staff views that list who did what. Unknown ids are left out. Names come
 * from the isolate's cache where it has them (core/auth/liveness.ts: dropped when the feed of renamed
 * accounts brings the id, ADR 0053), so a list whose people were shown before reads only its page.
 */
export async function userNames({
  ctx,
  ids,
}: {
  ctx: PlatformCtx;
  ids: readonly string[];
}): Promise<Map<string, string>> {
  const { names, missing, renames } = await knownNames(ctx.platform, ids);
  if (missing.length === 0) {
    return names;
  }
  const read = new Map((await usersByIds(ctx, missing)).map((u) => [u.id, u.name]));
  keepNames(read, renames);
  for (const [id, name] of read) {
    names.set(id, name);
  }
  return names;
}

/**
 * Users by id with how to reach them (name, email, WhatsApp number), in one read: for a view that shows
 * names and also links to some of them. Unknown ids are left out.
 */
export async function userContacts({
  ctx,
  ids,
}: {
  ctx: PlatformCtx;
  ids: readonly string[];
}): Promise<Map<string, Awaited<ReturnType<typeof usersByIds>>[number]>> {
  return new Map((await usersByIds(ctx, ids)).map((u) => [u.id, u]));
}

/** How to reach a user (name, email, WhatsApp number), or null for an unknown id. */
export async function userContact({ ctx, id }: { ctx: PlatformCtx; id: string }) {
  return (await usersByIds(ctx, [id]))[0] ?? null;
}

/** The tenant's officers (bendahara, sekretaris, admin) by name and duties, for residents to know whom to ask. */
export async function officersOf({ ctx }: { ctx: TenantCtx }) {
  return ctx.platform
    .select({ name: users.name, roles: memberships.roles })
    .from(memberships)
    .innerJoin(users, eq(users.id, memberships.userId))
    .where(
      and(
        eq(memberships.tenantId, ctx.tenant.id),
        holdsAnyDutySql(["admin", "sekretaris", "bendahara"]),
        eq(users.status, "active"),
      ),
    )
    .orderBy(asc(users.name));
}

/** The admins of a community with how to reach them (billing's invoices and reminders go to them). */
export async function tenantAdminContacts({ ctx, tenantId }: { ctx: PlatformCtx; tenantId: string }) {
  return ctx.platform
    .select({ id: users.id, name: users.name, email: users.email, whatsapp: users.whatsapp })
    .from(memberships)
    .innerJoin(users, eq(users.id, memberships.userId))
    .where(and(eq(memberships.tenantId, tenantId), holdsDutySql("admin"), eq(users.status, "active")))
    .orderBy(asc(memberships.id));
}

/**
 * Everyone in the tenant (residents and staff) with how to reach them and their housing unit: the
 * audience of announcements, news and agenda reminders. One query, however many members; with
 * `unitIds`, only the members housed there (the arrears page reminds a page of houses, not the RT).
 */
export async function membersWithContact({ ctx, unitIds }: { ctx: TenantCtx; unitIds?: readonly string[] }) {
  return ctx.platform
    .select({
      userId: users.id,
      roles: memberships.roles,
      unitId: memberships.unitId,
      name: users.name,
      email: users.email,
      whatsapp: users.whatsapp,
    })
    .from(memberships)
    .innerJoin(users, eq(users.id, memberships.userId))
    .where(
      and(eq(memberships.tenantId, ctx.tenant.id), unitIds ? inList(memberships.unitId, unitIds) : undefined),
    )
    .orderBy(asc(users.id));
}
