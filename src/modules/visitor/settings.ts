import { eq } from "drizzle-orm";
import { audit } from "../../core/audit";
import type { TenantCtx } from "../../core/context";
import { Invalid } from "../../core/errors";
import { requireUser } from "../../core/http/access";
import { nowIso } from "../../core/time";
import type { CreateVisitorInput, VisitorSettingsInput } from "./schemas";
import { visitorSettings } from "./tables";

/** The community's rules for registering a guest; without a saved row, the spec's: plate and identity given. */
export async function loadVisitorSettings(ctx: Pick<TenantCtx, "db">) {
  const row = await ctx.db.select().from(visitorSettings).where(eq(visitorSettings.id, 1)).get();
  return {
    requireVehiclePlate: row?.requireVehiclePlate ?? true,
    requireIdentity: row?.requireIdentity ?? true,
    updatedAt: row?.updatedAt ?? null,
  };
}

export async function getVisitorSettings({ ctx }: { ctx: TenantCtx }) {
  return loadVisitorSettings(ctx);
}

export async function updateVisitorSettings({ ctx, input }: { ctx: TenantCtx; input: VisitorSettingsInput }) {
  const current = await loadVisitorSettings(ctx);
  const next = {
    requireVehiclePlate: input.requireVehiclePlate ?? current.requireVehiclePlate,
    requireIdentity: input.requireIdentity ?? current.requireIdentity,
    updatedAt: nowIso(ctx),
    updatedBy: requireUser(ctx).userId,
  };
  await ctx.db.batch([
    ctx.db
      .insert(visitorSettings)
      .values({ id: 1, ...next })
      .onConflictDoUpdate({ target: visitorSettings.id, set: next }),
    audit(ctx, {
      action: "visitor.settings",
      targetType: "visitor_settings",
      targetId: "1",
      detail: { requireVehiclePlate: next.requireVehiclePlate, requireIdentity: next.requireIdentity },
    }),
  ]);
  return loadVisitorSettings(ctx);
}

/** A registration that leaves out what the community records is 400, one field error per missing field. */
export async function requireRecordedFields(ctx: TenantCtx, input: CreateVisitorInput): Promise<void> {
  const settings = await loadVisitorSettings(ctx);
  const missing = [
    ...(settings.requireVehiclePlate && !input.vehiclePlate ? ["vehiclePlate"] : []),
    ...(settings.requireIdentity && !input.identity ? ["identity"] : []),
  ];
  if (missing.length) {
    throw new Invalid(
      "invalid_input",
      "Give what this community records about a guest at registration.",
      missing.map((field) => ({ field, message: "required by this community" })),
    );
  }
}
