import { eq, sql } from "drizzle-orm";
import { platformAudit } from "../../core/audit";
import { forgetUserNames } from "../../core/auth/liveness";
import type { TenantCtx } from "../../core/context";
import { isUniqueViolation } from "../../core/db/errors";
import { users } from "../../core/db/identity-schema";
import { requireUser } from "../../core/http/access";
import { latestUnitRequest, requestUnit, unitsByIds } from "../kependudukan/service";
import { verifiedHolderOf, whatsappTaken } from "./contacts";
import type { ProfileInput } from "./schemas";
import { me, membershipIn } from "./service";

/** A `rumah` request as the profile shows it (Me.unitRequest). */
export function unitRequestView(request: Awaited<ReturnType<typeof latestUnitRequest>>) {
  if (!request?.house) {
    return null;
  }
  const { id, house, status, reason, createdAt, decidedAt } = request;
  return { id, block: house.block, number: house.number, status, reason, createdAt, decidedAt };
}

/**
 * The spec's resident profile. Name and number belong to the person (all their communities see
 * them); the housing unit belongs to the membership, since one person may live in one RT and serve
 * in another. A house is granted, not claimed (issue 44): block and number here only file a request
 * with the secretariat (kependudukan's `rumah` correction, through this route's tenant context), and no
 * unit is created; the membership's unit changes when staff accept it or set it. This file, not
 * service.ts, reaches kependudukan: kependudukan depends on identity's service, never the reverse.
 */
export async function updateProfile({ ctx, input }: { ctx: TenantCtx; input: ProfileInput }) {
  const actor = requireUser(ctx);
  // A claim to a number another account has proven is refused; any other number is kept unproven
  // until its code comes back (contacts.ts), and a changed number loses the old one's proof.
  if (await verifiedHolderOf(ctx, input.whatsapp, actor.userId)) {
    throw whatsappTaken();
  }
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
      platformAudit(ctx, { action: "profile.update", targetType: "user", targetId: actor.userId }),
    ]);
  } catch (error) {
    if (isUniqueViolation(error, "users.whatsapp")) {
      throw whatsappTaken();
    }
    throw error;
  }
  // Staff lists in this isolate show the new name on their next read (others when the feed brings it).
  forgetUserNames([actor.userId]);
  const unitId = (await membershipIn({ ctx }))?.unitId ?? null;
  if (input.block !== undefined && input.houseNumber !== undefined) {
    await requestUnit({
      ctx,
      currentUnitId: unitId,
      input: { block: input.block, number: input.houseNumber },
    });
  }
  const unit = unitId ? ((await unitsByIds({ ctx, ids: [unitId] })).get(unitId) ?? null) : null;
  return {
    ...(await me({ ctx })),
    unit,
    unitRequest: unitRequestView(await latestUnitRequest({ ctx, userId: actor.userId })),
  };
}
