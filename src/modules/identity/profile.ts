import { and, eq } from "drizzle-orm";
import { auditInsert } from "../../core/audit";
import type { TenantCtx } from "../../core/context";
import { platformDb } from "../../core/db/platform";
import { memberships, users } from "../../core/db/platform-schema";
import { Conflict } from "../../core/errors";
import { findOrCreateUnit } from "../kependudukan/service";
import { userActor } from "./actor";
import type { ProfileInput } from "./schemas";
import { me } from "./service";

/**
 * The spec's resident profile. Name and number belong to the person (all their communities see
 * them); the housing unit belongs to the membership, since one person may live in one RT and serve
 * in another. The unit is created on first use, so residents need not wait for staff to register it.
 */
export async function updateProfile({ ctx, input }: { ctx: TenantCtx; input: ProfileInput }) {
  const actor = userActor(ctx.actor);
  const unit = await findOrCreateUnit({ ctx, input: { block: input.block, number: input.houseNumber } });
  const db = platformDb(ctx.env);
  try {
    await db.batch([
      db
        .update(users)
        .set({ name: input.fullName, whatsapp: input.whatsapp, updatedAt: new Date().toISOString() })
        .where(eq(users.id, actor.userId)),
      db
        .update(memberships)
        .set({ unitId: unit.id })
        .where(and(eq(memberships.userId, actor.userId), eq(memberships.tenantId, ctx.tenant.id))),
      auditInsert(db, ctx, {
        tenantId: ctx.tenant.id,
        action: "profile.update",
        targetType: "user",
        targetId: actor.userId,
        detail: { unitId: unit.id },
      }),
    ]);
  } catch (error) {
    if (String(error).includes("users.whatsapp")) {
      throw new Conflict("whatsapp_taken", "This WhatsApp number belongs to another account.");
    }
    throw error;
  }
  return me({ env: ctx.env, actor });
}
