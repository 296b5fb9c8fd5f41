import { and, desc, eq } from "drizzle-orm";
import type { TenantCtx } from "../../core/context";
import { requireUser } from "../../core/http/access";
import { newId } from "../../core/ids";
import { normaliseBlock, normaliseHouseNumber } from "../../core/schemas";
import { present } from "./correction-view";
import { corrections, units } from "./tables";

/**
 * A member asks to be registered at a house (issue 44: a house is granted, not claimed). Nothing
 * changes, and no unit is created, until the secretariat accepts it: until then the member has no
 * unit-bound access (the house's dues, its household ballot, its family cards). One request waits per
 * member: a new one replaces the one still waiting (it had changed nothing). Asking for the house one
 * already has withdraws a waiting request and answers null. Not audited, as a correction proposal.
 */
export async function requestUnit({
  ctx,
  currentUnitId,
  input,
}: {
  ctx: TenantCtx;
  currentUnitId: string | null;
  input: { block: string; number: string };
}) {
  const actor = requireUser(ctx);
  const house = { block: normaliseBlock(input.block), number: normaliseHouseNumber(input.number) };
  const withdraw = ctx.db
    .delete(corrections)
    .where(
      and(
        eq(corrections.userId, actor.userId),
        eq(corrections.field, "rumah"),
        eq(corrections.status, "diajukan"),
      ),
    );
  const current = currentUnitId
    ? await ctx.db.select().from(units).where(eq(units.id, currentUnitId)).get()
    : undefined;
  if (current && current.block === house.block && current.number === house.number) {
    await withdraw;
    return null;
  }
  const [, [row]] = await ctx.db.batch([
    withdraw,
    ctx.db
      .insert(corrections)
      .values({
        id: newId(),
        userId: actor.userId,
        unitId: currentUnitId,
        field: "rumah",
        value: JSON.stringify(house),
      })
      .returning(),
  ]);
  if (!row) {
    throw new Error("insert returned no row");
  }
  return present(row, null, false);
}

/**
 * The member's house (block and number) and their newest `rumah` request, read together: the profile
 * read of every app start. One batch, so the slot owner check rides with them (core/tenancy/owner.ts)
 * and the tenant database is one round trip, not three.
 */
export async function houseAndUnitRequest({
  ctx,
  unitId,
  userId,
}: {
  ctx: Pick<TenantCtx, "db">;
  unitId: string | null;
  userId: string;
}) {
  // A member without a house asks for the id "" (no unit has it): the same batch either way.
  const [[unit], [row]] = await ctx.db.batch([
    ctx.db
      .select({ id: units.id, block: units.block, number: units.number })
      .from(units)
      .where(eq(units.id, unitId ?? "")),
    latestRequestQuery(ctx, userId),
  ]);
  return { unit: unit ?? null, unitRequest: row ? present(row, null, false) : null };
}

function latestRequestQuery(ctx: Pick<TenantCtx, "db">, userId: string) {
  return ctx.db
    .select()
    .from(corrections)
    .where(and(eq(corrections.userId, userId), eq(corrections.field, "rumah")))
    .orderBy(desc(corrections.id))
    .limit(1);
}

/** The member's newest `rumah` request (waiting or decided), for their profile; null when none. */
export async function latestUnitRequest({ ctx, userId }: { ctx: Pick<TenantCtx, "db">; userId: string }) {
  const [row] = await latestRequestQuery(ctx, userId);
  return row ? present(row, null, false) : null;
}
