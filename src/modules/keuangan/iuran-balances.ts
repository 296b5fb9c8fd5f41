import { and, eq, inArray, sql } from "drizzle-orm";
import type { TenantCtx } from "../../core/context";
import { duesBalances, duesBills } from "./tables";

/**
 * The kept dues balances (ADR 0028). A slot is one unit, period and billing target; its row holds what
 * the slot's open bills still owe and exists only while one is open. Each write of bills or payments
 * appends these statements to its own batch, after the statements that move the bills, so the rows it
 * writes are computed from the bills as that same transaction left them: the kept rows can never say
 * something the bills do not, whatever ran before or beside it. Recomputing the slot (a handful of
 * bills, one per dues type) instead of adding a delta is what keeps a retried or raced write from
 * counting twice.
 */

type Db = TenantCtx["db"];

const OPEN = ["belum", "sebagian"] as const;

/** The open bills of the matching bills, one row per slot, in the table's column order. */
function slotsOf(db: Db, where: ReturnType<typeof and>) {
  return db
    .select({
      targetId: duesBills.targetId,
      period: duesBills.period,
      basis: sql<"unit" | "kk">`max(${duesBills.basis})`.as("basis"),
      unitId: duesBills.unitId,
      familyId: sql<string | null>`max(${duesBills.familyId})`.as("family_id"),
      outstanding: sql<number>`sum(${duesBills.amount} - ${duesBills.paidAmount})`.as("outstanding"),
      openBills: sql<number>`count(*)`.as("open_bills"),
    })
    .from(duesBills)
    .where(and(where, inArray(duesBills.status, [...OPEN])))
    .groupBy(duesBills.unitId, duesBills.period, duesBills.targetId);
}

/** Rewrites the kept rows of one unit's period (every target there) from its bills. */
export function refreshUnitPeriod(db: Db, slot: { unitId: string; period: string }) {
  return [
    db
      .delete(duesBalances)
      .where(and(eq(duesBalances.unitId, slot.unitId), eq(duesBalances.period, slot.period))),
    db
      .insert(duesBalances)
      .select(slotsOf(db, and(eq(duesBills.unitId, slot.unitId), eq(duesBills.period, slot.period)))),
  ] as const;
}

/** Rewrites the kept rows of a whole period from its bills (after generation: one pass over one month). */
export function refreshPeriod(db: Db, period: string) {
  return [
    db.delete(duesBalances).where(eq(duesBalances.period, period)),
    db.insert(duesBalances).select(slotsOf(db, and(eq(duesBills.period, period)))),
  ] as const;
}
