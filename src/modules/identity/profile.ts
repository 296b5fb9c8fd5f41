import { eq } from "drizzle-orm";
import { platformAudit } from "../../core/audit";
import type { TenantCtx } from "../../core/context";
import { isUniqueViolation } from "../../core/db/errors";
import { users } from "../../core/db/platform-schema";
import { Conflict } from "../../core/errors";
import { requireUser } from "../../core/http/access";
import { latestUnitRequest, requestUnit, unitsByIds } from "../kependudukan/service";
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
  try {
    await ctx.platform.batch([
      ctx.platform
        .update(users)
        .set({ name: input.fullName, whatsapp: input.whatsapp, updatedAt: ctx.now().toISOString() })
        .where(eq(users.id, actor.userId)),
      platformAudit(ctx, { action: "profile.update", targetType: "user", targetId: actor.userId }),
    ]);
  } catch (error) {
    if (isUniqueViolation(error, "users.whatsapp")) {
      throw new Conflict("whatsapp_taken", "This WhatsApp number belongs to another account.");
    }
    throw error;
  }
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
