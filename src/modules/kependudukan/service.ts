import { and, asc, eq, gt, inArray, type SQL } from "drizzle-orm";
import { auditInsert } from "../../core/audit";
import type { TenantCtx, TenantDb } from "../../core/context";
import { platformDb } from "../../core/db/platform";
import { Conflict, NotFound } from "../../core/errors";
import { newId } from "../../core/ids";
import { normaliseBlock, normaliseHouseNumber } from "../../core/schemas";
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

/**
 * The unit a resident names in their profile or application, created on first use. Insert-or-ignore
 * then read, in one batch, so two residents of one house naming it at once share a single row.
 */
export async function findOrCreateUnit({
  ctx,
  input,
}: {
  ctx: Pick<TenantCtx, "db">;
  input: { block: string; number: string };
}) {
  const block = normaliseBlock(input.block);
  const number = normaliseHouseNumber(input.number);
  const [, rows] = await ctx.db.batch([
    ctx.db
      .insert(units)
      .values({ id: newId(), block, number, updatedAt: new Date().toISOString() })
      .onConflictDoNothing({ target: [units.block, units.number] }),
    ctx.db
      .select()
      .from(units)
      .where(and(eq(units.block, block), eq(units.number, number))),
  ]);
  const unit = rows[0];
  if (!unit) {
    throw new Error("unit vanished after insert");
  }
  return unit;
}

/** Block and number of the given units, for views that show residents with their houses. */
export async function unitsByIds(db: TenantDb, ids: readonly string[]) {
  const found = new Map<string, { id: string; block: string; number: string }>();
  const unique = [...new Set(ids)];
  for (let i = 0; i < unique.length; i += 90) {
    const rows = await db
      .select({ id: units.id, block: units.block, number: units.number })
      .from(units)
      .where(inArray(units.id, unique.slice(i, i + 90)));
    for (const row of rows) {
      found.set(row.id, row);
    }
  }
  return found;
}

// Registry of family cards and their members (families.ts); letters read households through these.
export { householdMembers, maskNik } from "./families";
