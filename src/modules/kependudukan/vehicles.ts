import { and, asc, eq, inArray, sql } from "drizzle-orm";
import { audit } from "../../core/audit";
import type { TenantCtx, TenantDb } from "../../core/context";
import { afterCursor, keysetPage, type ListQuery } from "../../core/db/paging";
import { NotFound } from "../../core/errors";
import { newId } from "../../core/ids";
import { plateKey } from "../../core/plate";
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

/** The key of a plate the schema has already accepted (`Plate` refuses what has none). */
function keyOf(plate: string): string {
  const key = plateKey(plate);
  if (key === null) {
    throw new Error("a plate the schema accepted has no key");
  }
  return key;
}

/**
 * After a vehicle left a plate (deleted, or its plate changed), the oldest vehicle still flagged with
 * that plate takes it over when no unflagged one holds it: it is no longer anyone's duplicate, and the
 * unique index covers it again. A no-op otherwise (ADR 0047).
 */
function promoteDuplicate(db: TenantDb, key: string | null) {
  return db
    .update(vehicles)
    .set({ plateDuplicate: false })
    .where(
      sql`${vehicles.id} = (SELECT min(v.id) FROM ${vehicles} v WHERE v.plate_key = ${key} AND v.plate_duplicate = 1)
        AND NOT EXISTS (SELECT 1 FROM ${vehicles} v WHERE v.plate_key = ${key} AND v.plate_duplicate = 0)`,
    );
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
          plateKey: keyOf(input.plate),
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
  const before = await vehicleOr404(ctx, id, vehicleId);
  // A new plate is checked against every other vehicle's, this one's own review flag cleared with it.
  const plate = input.plate === undefined ? {} : { plateKey: keyOf(input.plate), plateDuplicate: false };
  try {
    const [[row]] = await ctx.db.batch([
      ctx.db
        .update(vehicles)
        .set({ ...input, ...plate, updatedAt: ctx.now().toISOString() })
        .where(eq(vehicles.id, vehicleId))
        .returning(),
      promoteDuplicate(ctx.db, before.plateKey),
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
    promoteDuplicate(ctx.db, row.plateKey),
    audit(ctx, {
      action: "kk.vehicle.delete",
      targetType: "vehicle",
      targetId: vehicleId,
      detail: { familyCardId: id, plate: row.plate },
    }),
  ]);
}

/**
 * The vehicles flagged as another's duplicate (ADR 0047), oldest first, each with every other vehicle
 * holding the same plate: what the secretary corrects or removes. A flagged vehicle leaves the list when
 * its plate is corrected, or becomes the plate's holder when the other vehicles are removed.
 */
export async function listPlateDuplicates({ ctx, input }: { ctx: TenantCtx; input: ListQuery }) {
  // `= 1` written out, not bound: the partial index `vehicles_duplicates_idx` serves only a condition
  // the planner can see implies its own.
  const onPage = and(eq(vehicles.plateDuplicate, sql`1`), ...afterCursor(vehicles.id, input.cursor, "asc"));
  // The page's plates, for the other vehicles holding them: the same page, in the same batch.
  const pageKeys = ctx.db
    .select({ plateKey: vehicles.plateKey })
    .from(vehicles)
    .where(onPage)
    .orderBy(asc(vehicles.id))
    .limit(input.limit);
  const [flagged, holders] = await ctx.db.batch([
    ctx.db
      .select({ vehicle: vehicles, headName: familyCards.headName })
      .from(vehicles)
      .leftJoin(familyCards, eq(familyCards.id, vehicles.familyCardId))
      .where(onPage)
      .orderBy(asc(vehicles.id))
      .limit(input.limit + 1),
    ctx.db
      .select({ vehicle: vehicles, headName: familyCards.headName })
      .from(vehicles)
      .leftJoin(familyCards, eq(familyCards.id, vehicles.familyCardId))
      .where(inArray(vehicles.plateKey, pageKeys))
      .orderBy(asc(vehicles.id)),
  ]);
  const page = keysetPage(
    flagged.map((r) => ({ id: r.vehicle.id, row: r })),
    input.limit,
  );
  const shown = (r: { vehicle: typeof vehicles.$inferSelect; headName: string | null }) => ({
    ...presentVehicle(r.vehicle),
    typed: r.vehicle.plate,
    headName: r.headName,
  });
  return {
    items: page.items.map(({ row }) => ({
      ...shown(row),
      samePlate: holders
        .filter((h) => h.vehicle.plateKey === row.vehicle.plateKey && h.vehicle.id !== row.vehicle.id)
        .map(shown),
    })),
    nextCursor: page.nextCursor,
  };
}
