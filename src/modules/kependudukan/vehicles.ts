import { and, eq } from "drizzle-orm";
import { audit } from "../../core/audit";
import type { TenantCtx } from "../../core/context";
import { NotFound } from "../../core/errors";
import { newId } from "../../core/ids";
import { presentVehicle, registryConflict } from "./families";
import type { UpdateVehicleInput, VehicleInput } from "./schemas";
import { familyCards, vehicles } from "./tables";

async function vehicleOr404(ctx: TenantCtx, id: string, vehicleId: string) {
  const row = await ctx.db
    .select()
    .from(vehicles)
    .where(and(eq(vehicles.id, vehicleId), eq(vehicles.familyCardId, id)))
    .get();
  if (!row) {
    throw new NotFound("Vehicle");
  }
  return row;
}

/** The plate goes in the audit detail: it is on the street for anyone to read, unlike a NIK. */
export async function addVehicle({ ctx, id, input }: { ctx: TenantCtx; id: string; input: VehicleInput }) {
  const card = await ctx.db
    .select({ id: familyCards.id })
    .from(familyCards)
    .where(eq(familyCards.id, id))
    .get();
  if (!card) {
    throw new NotFound("Family card");
  }
  const vehicleId = newId();
  try {
    const [[row]] = await ctx.db.batch([
      ctx.db
        .insert(vehicles)
        .values({
          id: vehicleId,
          familyCardId: id,
          plate: input.plate,
          kind: input.kind,
          brand: input.brand ?? null,
          model: input.model ?? null,
          colour: input.colour ?? null,
          updatedAt: ctx.now().toISOString(),
        })
        .returning(),
      audit(ctx, {
        action: "kk.vehicle.add",
        targetType: "vehicle",
        targetId: vehicleId,
        detail: { familyCardId: id, plate: input.plate },
      }),
    ]);
    if (!row) {
      throw new Error("insert returned no row");
    }
    return presentVehicle(row);
  } catch (error) {
    registryConflict(error);
  }
}

export async function updateVehicle({
  ctx,
  id,
  vehicleId,
  input,
}: {
  ctx: TenantCtx;
  id: string;
  vehicleId: string;
  input: UpdateVehicleInput;
}) {
  await vehicleOr404(ctx, id, vehicleId);
  try {
    const [[row]] = await ctx.db.batch([
      ctx.db
        .update(vehicles)
        .set({ ...input, updatedAt: ctx.now().toISOString() })
        .where(eq(vehicles.id, vehicleId))
        .returning(),
      audit(ctx, {
        action: "kk.vehicle.update",
        targetType: "vehicle",
        targetId: vehicleId,
        detail: { familyCardId: id, fields: Object.keys(input) },
      }),
    ]);
    if (!row) {
      throw new NotFound("Vehicle");
    }
    return presentVehicle(row);
  } catch (error) {
    registryConflict(error);
  }
}

export async function deleteVehicle({
  ctx,
  id,
  vehicleId,
}: {
  ctx: TenantCtx;
  id: string;
  vehicleId: string;
}) {
  const row = await vehicleOr404(ctx, id, vehicleId);
  await ctx.db.batch([
    ctx.db.delete(vehicles).where(eq(vehicles.id, vehicleId)),
    audit(ctx, {
      action: "kk.vehicle.delete",
      targetType: "vehicle",
      targetId: vehicleId,
      detail: { familyCardId: id, plate: row.plate },
    }),
  ]);
}
