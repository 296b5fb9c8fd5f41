import { and, asc, eq, inArray } from "drizzle-orm";
import type { Actor } from "../../core/context";
import { platformDb } from "../../core/db/platform";
import { memberships, tenants, users } from "../../core/db/platform-schema";
import type { Bindings } from "../../core/env";
import { Conflict, NotFound } from "../../core/errors";
import { findTenantBySlug, tenantDb } from "../../core/tenancy";
import { unitsByIds } from "../kependudukan/service";

/**
 * Reads of accounts and memberships that other modules use. The sign-in flows live beside this file:
 * sessions.ts (login, refresh, logout, switch), magicLink.ts, passwordReset.ts, oauth/, profile.ts.
 */

export type TenantRow = typeof tenants.$inferSelect;
export type UserRow = typeof users.$inferSelect;
export const tenantRef = (t: TenantRow) => ({ slug: t.slug, name: t.name, type: t.type });

export async function membershipsOf(env: Bindings, userId: string) {
  return platformDb(env)
    .select({ membership: memberships, tenant: tenants })
    .from(memberships)
    .innerJoin(tenants, eq(tenants.id, memberships.tenantId))
    .where(eq(memberships.userId, userId))
    .orderBy(asc(memberships.createdAt), asc(memberships.id));
}

/** A profile is complete exactly when the name, the WhatsApp number and the housing unit are set. */
export function isProfileComplete(user: Pick<UserRow, "name" | "whatsapp">, unitId: string | null): boolean {
  return Boolean(user.name.trim() && user.whatsapp && unitId);
}

export async function me({ env, actor }: { env: Bindings; actor: Extract<Actor, { kind: "user" }> }) {
  const db = platformDb(env);
  const user = await db.select().from(users).where(eq(users.id, actor.userId)).get();
  if (!user) {
    throw new NotFound("User");
  }
  const all = await membershipsOf(env, user.id);
  const current = actor.tenantSlug ? all.find((m) => m.tenant.slug === actor.tenantSlug) : undefined;
  const unitId = current?.membership.unitId ?? null;
  let unit: { id: string; block: string; number: string } | null = null;
  if (current && unitId) {
    const tenant = await findTenantBySlug(db, current.tenant.slug);
    unit = tenant ? ((await unitsByIds(tenantDb(env, tenant.slot), [unitId])).get(unitId) ?? null) : null;
  }
  return {
    id: user.id,
    name: user.name,
    email: user.email,
    whatsapp: user.whatsapp,
    role: actor.role,
    tenant: current ? tenantRef(current.tenant) : null,
    unitId,
    unit,
    profileComplete: isProfileComplete(user, unitId),
    memberships: all.map((m) => ({ tenant: tenantRef(m.tenant), role: m.membership.role })),
  };
}

/**
 * For modules that act per household (dues, household polls): the caller's unit, or 409
 * `profile_incomplete` until the resident has completed their profile.
 */
export async function requireCompleteProfile(env: Bindings, userId: string, tenantId: string) {
  const row = await platformDb(env)
    .select({ name: users.name, whatsapp: users.whatsapp, unitId: memberships.unitId })
    .from(memberships)
    .innerJoin(users, eq(users.id, memberships.userId))
    .where(and(eq(memberships.userId, userId), eq(memberships.tenantId, tenantId)))
    .get();
  if (!row?.unitId || !isProfileComplete(row, row.unitId)) {
    throw new Conflict(
      "profile_incomplete",
      "Complete your profile (full name, WhatsApp number, block and house number) first.",
    );
  }
  return { unitId: row.unitId };
}

/** Resident accounts of a tenant: the "total registered residents" indicator. */
export async function countResidents(env: Bindings, tenantId: string): Promise<number> {
  return platformDb(env).$count(
    memberships,
    and(eq(memberships.tenantId, tenantId), eq(memberships.role, "warga")),
  );
}

/** The caller's membership in a tenant (role and housing unit), or null. */
export async function membershipIn(env: Bindings, userId: string, tenantId: string) {
  return (
    (await platformDb(env)
      .select()
      .from(memberships)
      .where(and(eq(memberships.userId, userId), eq(memberships.tenantId, tenantId)))
      .get()) ?? null
  );
}

/** Resident accounts of a tenant with their housing units (eligible voters, household counts). */
export async function residentsOf(env: Bindings, tenantId: string) {
  return platformDb(env)
    .select({ userId: memberships.userId, unitId: memberships.unitId })
    .from(memberships)
    .where(and(eq(memberships.tenantId, tenantId), eq(memberships.role, "warga")));
}

/** Display names of users, for staff views that list who did what. */
export async function userNames(env: Bindings, ids: readonly string[]): Promise<Map<string, string>> {
  const names = new Map<string, string>();
  const unique = [...new Set(ids)];
  for (let i = 0; i < unique.length; i += 90) {
    const rows = await platformDb(env)
      .select({ id: users.id, name: users.name })
      .from(users)
      .where(inArray(users.id, unique.slice(i, i + 90)));
    for (const row of rows) {
      names.set(row.id, row.name);
    }
  }
  return names;
}
