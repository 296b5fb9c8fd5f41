import { and, asc, eq, gt, inArray, isNotNull, isNull, or, type SQL, sql } from "drizzle-orm";
import type { TenantCtx } from "../../../core/context";
import type { ListQuery } from "../../../core/db/paging";
import { keysetPage } from "../../../core/db/paging";
import { familyCardsByIds, unitsByIds } from "../../kependudukan/service";
import { duesBills } from "../tables";
import { refreshUnit } from "./balances";

/**
 * A family's dues when it moves out (issue 45). Its bills become its own debt: marked with the card
 * (`moved_out_family_id`), left out of the unit's kept balances and of every list bound to the unit, so
 * the unit's next occupant starts clean, and listed apart for the treasurer (`movedOutDebts`).
 */

/**
 * The statements, for the registry's move-out batch, that settle a family's bills to it: the bills
 * billed to its card (per KK), and, when it leaves the unit empty (`wholeUnit`), the unit's per-unit
 * bills too, paid ones included (they are that family's history, not the next occupant's). Then the
 * unit's kept balances are rewritten from its bills in the same batch.
 */
export function settleBillsToFamily(
  ctx: Pick<TenantCtx, "db">,
  { unitId, familyCardId, wholeUnit }: { unitId: string; familyCardId: string; wholeUnit: boolean },
) {
  const whose: SQL = wholeUnit
    ? (or(
        eq(duesBills.familyId, familyCardId),
        and(eq(duesBills.unitId, unitId), eq(duesBills.basis, "unit")),
      ) as SQL)
    : eq(duesBills.familyId, familyCardId);
  return [
    ctx.db
      .update(duesBills)
      .set({ movedOutFamilyId: familyCardId })
      .where(and(whose, isNull(duesBills.movedOutFamilyId))),
    ...refreshUnit(ctx.db, unitId),
  ] as const;
}

/**
 * The treasurer's list of what families that moved out still owe (issue 45): one row per family, by
 * card id, with its head, the house it left and the day it left, labelled `pindah`.
 */
export async function movedOutDebts({ ctx, input }: { ctx: TenantCtx; input: ListQuery }) {
  const b = duesBills;
  const rows = await ctx.db
    .select({
      familyId: sql<string>`${b.movedOutFamilyId}`,
      unitId: sql<string>`max(${b.unitId})`,
      owed: sql<number>`sum(${b.amount} - ${b.paidAmount})`,
      unpaidBills: sql<number>`count(*)`,
      oldestPeriod: sql<string>`min(${b.period})`,
    })
    .from(b)
    .where(
      and(
        isNotNull(b.movedOutFamilyId),
        inArray(b.status, ["belum", "sebagian"]),
        ...(input.cursor ? [gt(b.movedOutFamilyId, input.cursor)] : []),
      ),
    )
    .groupBy(b.movedOutFamilyId)
    .orderBy(asc(b.movedOutFamilyId))
    .limit(input.limit + 1);
  const page = keysetPage(
    rows.map((r) => ({ ...r, id: r.familyId })),
    input.limit,
  );
  const [cards, units] = await Promise.all([
    familyCardsByIds({ ctx, ids: page.items.map((r) => r.familyId) }),
    unitsByIds({ ctx, ids: page.items.map((r) => r.unitId) }),
  ]);
  return {
    items: page.items.map((row) => {
      const card = cards.get(row.familyId);
      const unit = units.get(row.unitId);
      return {
        familyId: row.familyId,
        label: "pindah" as const,
        headName: card?.headName ?? null,
        leftOn: card?.statusDate ?? null,
        unitId: row.unitId,
        block: unit?.block ?? null,
        number: unit?.number ?? null,
        owed: Number(row.owed),
        unpaidBills: Number(row.unpaidBills),
        oldestPeriod: row.oldestPeriod,
      };
    }),
    nextCursor: page.nextCursor,
  };
}
