import { and, eq, isNull, or, type SQL, sql } from "drizzle-orm";
import { forgetSession } from "../../core/auth/liveness";
import type { TenantCtx } from "../../core/context";
import { memberships, sessions, users } from "../../core/db/identity-schema";
import { Conflict } from "../../core/errors";
import { holdsDutySql, signedInSql } from "./duties";

/**
 * Whether the community keeps an admin other than the membership `membershipId`: another membership
 * of the tenant holding `admin` whose account is not disabled and has signed in (an invited admin who
 * never accepted may never come: issue 44, P7). The same SQL guards the writes below, so the read that
 * refuses early and the write that decides a race agree.
 */
export function otherAdminSql(tenantId: string, membershipId: string): SQL {
  return sql`EXISTS (
    SELECT 1 FROM ${memberships} AS other
    JOIN ${users} AS account ON account.id = other.user_id AND account.status = 'active'
    WHERE other.tenant_id = ${tenantId} AND other.id <> ${membershipId}
      AND EXISTS (SELECT 1 FROM json_each(other.roles) WHERE json_each.value = 'admin')
      AND ${signedInSql(sql`account.id`, sql`other.tenant_id`)})`;
}

/** For a write that takes `admin` away from the membership: it holds no `admin`, or another admin remains. */
export function keepsAnAdmin(tenantId: string, membershipId: string): SQL {
  return or(sql`NOT ${holdsDutySql("admin")}`, otherAdminSql(tenantId, membershipId)) as SQL;
}

export async function hasOtherAdmin(ctx: TenantCtx, membershipId: string): Promise<boolean> {
  const row = await ctx.platform
    .select({ yes: sql<number>`${otherAdminSql(ctx.tenant.id, membershipId)}` })
    .from(sql`(SELECT 1)`)
    .get();
  return Boolean(row?.yes);
}

export const lastAdmin = () =>
  new Conflict("last_admin", "The community must keep an admin: appoint another admin first.");

/**
 * Ends every sign-in of the user in this community; its RETURNING names the families this isolate
 * forgets at once (`forgetSession`), so the old access token is refused on its very next request here,
 * and within the liveness cache's few seconds elsewhere.
 */
export function revokeSessionsIn(ctx: TenantCtx, userId: string) {
  return ctx.platform
    .update(sessions)
    .set({ revokedAt: ctx.now().toISOString() })
    .where(and(eq(sessions.userId, userId), eq(sessions.tenantId, ctx.tenant.id), isNull(sessions.revokedAt)))
    .returning({ familyId: sessions.familyId });
}

export function forgetFamilies(revoked: readonly { familyId: string }[]) {
  for (const familyId of new Set(revoked.map((r) => r.familyId))) {
    forgetSession(familyId);
  }
}
