import { and, asc, eq, gt, type SQL } from "drizzle-orm";
import { auditInsert } from "../../core/audit";
import type { TenantCtx } from "../../core/context";
import { platformDb } from "../../core/db/platform";
import { Conflict, NotFound } from "../../core/errors";
import { newId } from "../../core/ids";
import type { CreateUnitInput, UnitListQuery } from "./schemas";
import { units } from "./tables";

export async function getUnit({ ctx, id }: { ctx: TenantCtx; id: string }) {
  const unit = await ctx.db.select().from(units).where(eq(units.id, id)).get();
  if (!unit) {
    throw new NotFound("Unit");
  }
  return unit;
}

export async function listUnits({ ctx, input }: { ctx: TenantCtx; input: UnitListQuery }) {
  const filters: SQL[] = [];
  if (input.cursor) {
    filters.push(gt(units.id, input.cursor));
  }
  if (input.block) {
    filters.push(eq(units.block, input.block));
  }
  const rows = await ctx.db
    .select()
    .from(units)
    .where(and(...filters))
    .orderBy(asc(units.id))
    .limit(input.limit + 1);
  const items = rows.slice(0, input.limit);
  return { items, nextCursor: rows.length > input.limit ? (items.at(-1)?.id ?? null) : null };
}

export async function createUnit({ ctx, input }: { ctx: TenantCtx; input: CreateUnitInput }) {
  const id = newId();
  try {
    const [unit] = await ctx.db
      .insert(units)
      .values({
        id,
        block: input.block,
        number: input.number,
        latitude: input.latitude ?? null,
        longitude: input.longitude ?? null,
        updatedAt: new Date().toISOString(),
      })
      .returning();
    if (!unit) {
      throw new Error("insert returned no row");
    }
    // The tenant row and the platform audit live in different databases, so they cannot share a batch.
    const db = platformDb(ctx.env);
    await auditInsert(db, ctx, {
      tenantId: ctx.tenant.id,
      action: "unit.create",
      targetType: "unit",
      targetId: id,
      detail: { block: input.block, number: input.number },
    });
    return unit;
  } catch (error) {
    if (String(error).includes("UNIQUE constraint failed: units.block, units.number")) {
      throw new Conflict("unit_exists", `Unit ${input.block} ${input.number} already exists.`);
    }
    throw error;
  }
}
