import { and, asc, eq, or } from "drizzle-orm";
import type { PlatformCtx } from "../../core/context";
import { memberships, oneTimeTokens, sessions } from "../../core/db/identity-schema";
import { auditLog, residentApplications, tenants } from "../../core/db/platform-schema";

// The platform tables' rows about one account, read for the personal-data export (dataExport.ts).

/** The account's memberships with their communities, oldest first. */
export function membershipsOf(ctx: PlatformCtx, userId: string) {
  return ctx.platform
    .select({ membership: memberships, tenant: tenants })
    .from(memberships)
    .innerJoin(tenants, eq(tenants.id, memberships.tenantId))
    .where(eq(memberships.userId, userId))
    .orderBy(asc(memberships.createdAt), asc(memberships.id));
}

/** The account's sessions (ids, community and times), oldest first. */
export function sessionsOf(ctx: PlatformCtx, userId: string) {
  return ctx.platform
    .select({
      id: sessions.id,
      tenantId: sessions.tenantId,
      createdAt: sessions.createdAt,
      expiresAt: sessions.expiresAt,
      usedAt: sessions.usedAt,
      revokedAt: sessions.revokedAt,
    })
    .from(sessions)
    .where(eq(sessions.userId, userId))
    .orderBy(asc(sessions.createdAt), asc(sessions.id));
}

/** The account's sign-in links (purpose and times only, never the token), oldest first. */
export function signInLinksOf(ctx: PlatformCtx, userId: string) {
  return ctx.platform
    .select({
      purpose: oneTimeTokens.purpose,
      createdAt: oneTimeTokens.createdAt,
      expiresAt: oneTimeTokens.expiresAt,
      usedAt: oneTimeTokens.usedAt,
    })
    .from(oneTimeTokens)
    .where(eq(oneTimeTokens.userId, userId))
    .orderBy(asc(oneTimeTokens.createdAt), asc(oneTimeTokens.id));
}

/** The resident applications the account made, oldest first. */
export function applicationsOf(ctx: PlatformCtx, userId: string) {
  return ctx.platform
    .select({
      id: residentApplications.id,
      tenantId: residentApplications.tenantId,
      fullName: residentApplications.fullName,
      email: residentApplications.email,
      whatsapp: residentApplications.whatsapp,
      block: residentApplications.block,
      houseNumber: residentApplications.houseNumber,
      kkNumber: residentApplications.kkNumber,
      note: residentApplications.note,
      status: residentApplications.status,
      reason: residentApplications.reason,
      decidedAt: residentApplications.decidedAt,
      ip: residentApplications.ip,
      createdAt: residentApplications.createdAt,
    })
    .from(residentApplications)
    .where(eq(residentApplications.userId, userId))
    .orderBy(asc(residentApplications.createdAt));
}

/** Platform audit entries the account made or that target the account, oldest first. */
export function platformActivityOf(ctx: PlatformCtx, userId: string) {
  return ctx.platform
    .select({
      id: auditLog.id,
      tenantId: auditLog.tenantId,
      actorId: auditLog.actorId,
      action: auditLog.action,
      targetType: auditLog.targetType,
      targetId: auditLog.targetId,
      ip: auditLog.ip,
      createdAt: auditLog.createdAt,
    })
    .from(auditLog)
    .where(
      or(eq(auditLog.actorId, userId), and(eq(auditLog.targetType, "user"), eq(auditLog.targetId, userId))),
    )
    .orderBy(asc(auditLog.createdAt), asc(auditLog.id));
}
