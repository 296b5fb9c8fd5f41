import { and, eq, inArray, isNull, sql } from "drizzle-orm";
import type { TenantCtx } from "../../../core/context";
import { duesBalances, duesBills, duesUnitBalances } from "../tables";

/**
 * The kept dues balances (ADR 0028). A slot is one unit, period and billing target; its row holds what
 * the slot's open bills still owe and exists only while one is open. Each write of bills or payments
 * appends these statements to its own batch, after the statements that move the bills, so the rows it
 * writes are computed from the bills as that same transaction left them: the kept rows can never say
 * something the bills do not, whatever ran before or beside it. Recomputing the slot (a handful of
 * bills, one per dues type) instead of adding a delta is what keeps a retried or raced write from
 * counting twice.
 *
 * Each unit's totals over its slots (`dues_unit_balances`) follow in the same batch, recomputed from the
 * slot rows just written, so the arrears list can read a page in owed order without grouping every slot.
 */

type Db = TenantCtx["db"];

const OPEN = ["belum", "sebagian"] as const;

/** The open bills of the matching bills, one row per slot, in the table's column order. */
function slotsOf(db: Db, where: ReturnType<typeof and>) {
  // A bill settled to a family that moved out (issue 45) is that family's debt, not the unit's.
  const open = and(where, inArray(duesBills.status, [...OPEN]), isNull(duesBills.movedOutFamilyId));
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
    .where(open)
    .groupBy(duesBills.unitId, duesBills.period, duesBills.targetId);
}

/** A unit's totals over its kept slots, one row per unit with any (`where` picks the slots). */
function unitTotalsOf(db: Db, where?: ReturnType<typeof and>) {
  const b = duesBalances;
  return db
    .select({
      unitId: b.unitId,
      owed: sql<number>`sum(${b.outstanding})`.as("owed"),
      openBills: sql<number>`sum(${b.openBills})`.as("open_bills"),
      oldestPeriod: sql<string>`min(${b.period})`.as("oldest_period"),
      newestPeriod: sql<string>`max(${b.period})`.as("newest_period"),
    })
    .from(b)
    .where(where)
    .groupBy(b.unitId);
}

/** Rewrites the kept rows of one unit's period (every target there) from its bills, then the unit's totals. */
export function refreshUnitPeriod(db: Db, slot: { unitId: string; period: string }) {
  return [
    db
      .delete(duesBalances)
      .where(and(eq(duesBalances.unitId, slot.unitId), eq(duesBalances.period, slot.period))),
    db
      .insert(duesBalances)
      .select(slotsOf(db, and(eq(duesBills.unitId, slot.unitId), eq(duesBills.period, slot.period)))),
    db.delete(duesUnitBalances).where(eq(duesUnitBalances.unitId, slot.unitId)),
    db.insert(duesUnitBalances).select(unitTotalsOf(db, and(eq(duesBalances.unitId, slot.unitId)))),
  ] as const;
}

/**
 * Rewrites the kept rows of a whole period from its bills (after generation: one pass over one month),
 * then every unit's totals from the kept slots: generation touches nearly every unit, and it runs once
 * a month, so one pass over the open slots is simpler than picking the units out.
 */
export function refreshPeriod(db: Db, period: string) {
  return [
    db.delete(duesBalances).where(eq(duesBalances.period, period)),
    db.insert(duesBalances).select(slotsOf(db, and(eq(duesBills.period, period)))),
    db.delete(duesUnitBalances),
    db.insert(duesUnitBalances).select(unitTotalsOf(db)),
  ] as const;
}

/** Rewrites the kept rows of every period of one unit from its bills, then the unit's totals. */
export function refreshUnit(db: Db, unitId: string) {
  return [
    db.delete(duesBalances).where(eq(duesBalances.unitId, unitId)),
    db.insert(duesBalances).select(slotsOf(db, and(eq(duesBills.unitId, unitId)))),
    db.delete(duesUnitBalances).where(eq(duesUnitBalances.unitId, unitId)),
    db.insert(duesUnitBalances).select(unitTotalsOf(db, and(eq(duesBalances.unitId, unitId)))),
  ] as const;
}
