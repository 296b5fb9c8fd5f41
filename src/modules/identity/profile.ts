import { and, eq, sql } from "drizzle-orm";
import { platformAudit } from "../../core/audit";
import type { TenantCtx } from "../../core/context";
import { isUniqueViolation } from "../../core/db/errors";
import { memberships, users } from "../../core/db/platform-schema";
import { requireUser } from "../../core/http/access";
import { findOrCreateUnit } from "../kependudukan/service";
import { verifiedHolderOf, whatsappTaken } from "./contacts";
import type { ProfileInput } from "./schemas";
import { me } from "./service";

/**
 * The spec's resident profile. Name and number belong to the person (all their communities see
 * them); the housing unit belongs to the membership, since one person may live in one RT and serve
 * in another. The unit is created on first use in the tenant's registry (kependudukan, through this
 * route's tenant context), so residents need not wait for staff to register it. This file, not
 * service.ts, reaches kependudukan: kependudukan depends on identity's service, never the reverse.
 */
export async function updateProfile({ ctx, input }: { ctx: TenantCtx; input: ProfileInput }) {
  const actor = requireUser(ctx);
  // A claim to a number another account has proven is refused; any other number is kept unproven
  // until its code comes back (contacts.ts), and a changed number loses the old one's proof.
  if (await verifiedHolderOf(ctx, input.whatsapp, actor.userId)) {
    throw whatsappTaken();
  }
  const unit = await findOrCreateUnit({ ctx, input: { block: input.block, number: input.houseNumber } });
  try {
    await ctx.platform.batch([
      ctx.platform
        .update(users)
        .set({
          name: input.fullName,
          whatsapp: input.whatsapp,
          whatsappVerifiedAt: sql`CASE WHEN ${users.whatsapp} = ${input.whatsapp} THEN ${users.whatsappVerifiedAt} END`,
          updatedAt: ctx.now().toISOString(),
        })
        .where(eq(users.id, actor.userId)),
      ctx.platform
        .update(memberships)
        .set({ unitId: unit.id })
        .where(and(eq(memberships.userId, actor.userId), eq(memberships.tenantId, ctx.tenant.id))),
      platformAudit(ctx, {
        action: "profile.update",
        targetType: "user",
        targetId: actor.userId,
        detail: { unitId: unit.id },
      }),
    ]);
  } catch (error) {
    if (isUniqueViolation(error, "users.whatsapp")) {
      throw whatsappTaken();
    }
    throw error;
  }
  return { ...(await me({ ctx })), unit: { id: unit.id, block: unit.block, number: unit.number } };
}
