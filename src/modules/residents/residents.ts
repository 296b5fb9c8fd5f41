import { and, asc, eq, gt, inArray, type SQL } from "drizzle-orm";
import { auditInsert } from "../../core/audit";
import type { TenantCtx } from "../../core/context";
import { platformDb } from "../../core/db/platform";
import { memberships, users } from "../../core/db/platform-schema";
import { Conflict, NotFound } from "../../core/errors";
import { deliverInvitation, invitationChannel } from "../identity/invitations";
import { newOneTimeToken, retireTokens } from "../identity/oneTimeTokens";
import { unitsByIds } from "../kependudukan/service";
import type { ResidentListQuery } from "./schemas";

/** The tenant's resident accounts (role warga), with their houses from the tenant's registry. */
export async function listResidents({ ctx, input }: { ctx: TenantCtx; input: ResidentListQuery }) {
  const filters: SQL[] = [eq(memberships.tenantId, ctx.tenant.id), eq(memberships.role, "warga")];
  if (input.cursor) {
    filters.push(gt(memberships.id, input.cursor));
  }
  const rows = await platformDb(ctx.env)
    .select({ membership: memberships, user: users })
    .from(memberships)
    .innerJoin(users, eq(users.id, memberships.userId))
    .where(and(...filters))
    .orderBy(asc(memberships.id))
    .limit(input.limit + 1);
  const page = rows.slice(0, input.limit);
  const units = await unitsByIds(
    ctx.db,
    page.map((r) => r.membership.unitId).filter((id): id is string => id !== null),
  );
  return {
    items: page.map(({ membership, user }) => ({
      userId: user.id,
      name: user.name,
      email: user.email,
      whatsapp: user.whatsapp,
      unit: membership.unitId ? (units.get(membership.unitId) ?? null) : null,
      hasPassword: user.passwordHash !== null,
      joinedAt: membership.createdAt,
    })),
    nextCursor: rows.length > input.limit ? (page.at(-1)?.membership.id ?? null) : null,
  };
}

/**
 * Re-sends a resident's set-password link (they lost it, it expired, or they forgot the password and
 * have no email). Earlier invitation and reset links stop working, so only the newest one is live.
 */
export async function resetCredentials({ ctx, userId }: { ctx: TenantCtx; userId: string }) {
  const db = platformDb(ctx.env);
  const row = await db
    .select({ user: users })
    .from(memberships)
    .innerJoin(users, eq(users.id, memberships.userId))
    .where(
      and(
        eq(memberships.userId, userId),
        eq(memberships.tenantId, ctx.tenant.id),
        inArray(memberships.role, ["warga"]),
      ),
    )
    .get();
  if (!row) {
    throw new NotFound("Resident");
  }
  const { user } = row;
  if (!invitationChannel(user)) {
    throw new Conflict("no_contact", "This resident has neither an email nor a WhatsApp number.");
  }
  const invitation = await newOneTimeToken(db, { purpose: "invitation", userId });
  await db.batch([
    retireTokens(db, userId, ["invitation", "password_reset"]),
    invitation.insert,
    auditInsert(db, ctx, {
      tenantId: ctx.tenant.id,
      action: "resident.credentials_reset",
      targetType: "user",
      targetId: userId,
    }),
  ]);
  return deliverInvitation(ctx.env, {
    target: user,
    tenantName: ctx.tenant.name,
    token: invitation.token,
    idempotencyKey: `credentials-reset:${invitation.id}`,
    requestId: ctx.requestId,
  });
}
