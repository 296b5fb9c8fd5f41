import { and, eq, isNotNull, isNull, lte, or, sql } from "drizzle-orm";
import { platformAudit } from "../../core/audit";
import type { TenantCtx } from "../../core/context";
import { abortBatchUnless, isBatchAborted } from "../../core/db/errors";
import { memberships } from "../../core/db/identity-schema";
import { inList } from "../../core/db/lists";
import { tenants } from "../../core/db/platform-schema";
import { forgetFamilies, keepsAnAdmin, lastAdmin, revokeSessionsIn } from "./memberGuards";
import { retireInvitations } from "./oneTimeTokens";

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
    ...(personIds.length > 0 ? [inList(memberships.personId, personIds)] : []),
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
