import { and, asc, eq, inArray } from "drizzle-orm";
import { verifyPassword } from "../../core/auth/password";
import { ACCESS_TOKEN_TTL_SECONDS, signAccessToken } from "../../core/auth/tokens";
import type { Actor, Role } from "../../core/context";
import { platformDb } from "../../core/db/platform";
import { memberships, sessions, tenants, users } from "../../core/db/platform-schema";
import type { Bindings, Config } from "../../core/env";
import { Forbidden, NotFound, Unauthorized } from "../../core/errors";
import { newId, randomToken, sha256Hex } from "../../core/ids";
import type { LoginInput } from "./schemas";

export const REFRESH_TOKEN_TTL_DAYS = 30;

type TenantRow = typeof tenants.$inferSelect;
const tenantRef = (t: TenantRow) => ({ slug: t.slug, name: t.name, type: t.type });

async function membershipsOf(env: Bindings, userId: string) {
  return platformDb(env)
    .select({ membership: memberships, tenant: tenants })
    .from(memberships)
    .innerJoin(tenants, eq(tenants.id, memberships.tenantId))
    .where(eq(memberships.userId, userId))
    .orderBy(asc(memberships.createdAt), asc(memberships.id));
}

/** Opens a session (one refresh-token family) and signs the first access token of it. */
export async function openSession(
  env: Bindings,
  config: Config,
  user: typeof users.$inferSelect,
  role: Role,
  tenant: TenantRow | null,
) {
  const sessionId = newId();
  const refreshToken = randomToken(32);
  const expiresAt = new Date(Date.now() + REFRESH_TOKEN_TTL_DAYS * 86_400_000).toISOString();
  await platformDb(env)
    .insert(sessions)
    .values({
      id: sessionId,
      userId: user.id,
      tenantId: tenant?.id ?? null,
      familyId: sessionId,
      refreshHash: await sha256Hex(refreshToken),
      expiresAt,
    });
  const accessToken = await signAccessToken(config, {
    sub: user.id,
    tenant: tenant?.slug ?? null,
    role,
    sid: sessionId,
  });
  return {
    accessToken,
    refreshToken,
    expiresIn: ACCESS_TOKEN_TTL_SECONDS,
    user: {
      id: user.id,
      name: user.name,
      email: user.email,
      role,
      tenant: tenant ? tenantRef(tenant) : null,
    },
  };
}

/**
 * Email and password. A wrong email and a wrong password get the same 401 after the same work
 * (a dummy hash is verified for unknown emails), so the answer reveals no accounts.
 */
export async function login({ env, config, input }: { env: Bindings; config: Config; input: LoginInput }) {
  const email = input.email.trim().toLowerCase();
  const user = await platformDb(env).select().from(users).where(eq(users.email, email)).get();
  const valid = await verifyPassword(input.password, user?.passwordHash);
  if (!user || !valid) {
    throw new Unauthorized("invalid_credentials", "Email or password is wrong.");
  }
  if (user.status !== "active") {
    throw new Forbidden("account_disabled", "This account is disabled.");
  }
  if (user.platformRole === "super_admin" && !input.tenant) {
    return openSession(env, config, user, "super_admin", null);
  }
  const all = await membershipsOf(env, user.id);
  const chosen = input.tenant
    ? all.find((m) => m.tenant.slug === input.tenant)
    : (all.find((m) => m.tenant.status !== "suspended") ?? all[0]);
  if (!chosen) {
    throw new Forbidden("no_membership", "This account has no membership in that community.");
  }
  if (chosen.tenant.status === "suspended") {
    throw new Forbidden("tenant_suspended", "This community's account is suspended.");
  }
  return openSession(env, config, user, chosen.membership.role, chosen.tenant);
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
  return {
    id: user.id,
    name: user.name,
    email: user.email,
    whatsapp: user.whatsapp,
    role: actor.role,
    tenant: current ? tenantRef(current.tenant) : null,
    unitId,
    profileComplete: Boolean(user.name.trim() && user.whatsapp && unitId),
    memberships: all.map((m) => ({ tenant: tenantRef(m.tenant), role: m.membership.role })),
  };
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
