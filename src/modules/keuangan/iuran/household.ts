import { and, asc, desc, eq, inArray, isNull, ne, sql } from "drizzle-orm";
import type { TenantCtx } from "../../../core/context";
import { callerUnitId, requireCompleteProfile } from "../../identity/service";
import { DEFAULT_DUE_DAY, dueDateOf, isOverdue } from "../periods";
import { duesBills, duesPayments, duesTypes } from "../tables";
import { type PaymentRow, presentBill } from "./bills";

// A household's own dues: its bills, unpaid first, with totals, as the resident (and, through
// service.ts, the assistant and the watch summary) see them.

/** A payment as the household sees it: no cash-book or staff details. */
function presentOwnPayment(row: PaymentRow) {
  return {
    id: row.id,
    amount: row.amount,
    method: row.method,
    paidAt: row.paidAt,
    orderId: row.gatewayOrderId,
    reversed: row.reversedAt !== null,
  };
}

/** How many settled bills the resident's view shows after the unpaid ones. */
const PAID_SHOWN = 12;

/** The unit's household's bills: never those settled to a family that moved out (issue 45). */
const householdBills = (unitId: string) =>
  and(eq(duesBills.unitId, unitId), isNull(duesBills.movedOutFamilyId));

export async function duesOfUnit(ctx: TenantCtx, unitId: string) {
  const ofUnit = householdBills(unitId);
  const [unpaid, paid, [totals], payments, types] = await ctx.db.batch([
    ctx.db
      .select()
      .from(duesBills)
      .where(and(ofUnit, ne(duesBills.status, "lunas")))
      .orderBy(asc(duesBills.period), asc(duesBills.id)),
    ctx.db
      .select()
      .from(duesBills)
      .where(and(ofUnit, eq(duesBills.status, "lunas")))
      .orderBy(desc(duesBills.period), desc(duesBills.id))
      .limit(PAID_SHOWN),
    ctx.db
      .select({
        billed: sql<number>`coalesce(sum(${duesBills.amount}), 0)`,
        paid: sql<number>`coalesce(sum(${duesBills.paidAmount}), 0)`,
      })
      .from(duesBills)
      .where(ofUnit),
    // The household's payments, for its history and receipts (an online one names its gateway order).
    ctx.db
      .select()
      .from(duesPayments)
      .where(inArray(duesPayments.billId, ctx.db.select({ id: duesBills.id }).from(duesBills).where(ofUnit)))
      .orderBy(asc(duesPayments.id)),
    // Each type's due day: a bill is tunggakan only after it (issue 45).
    ctx.db.select({ id: duesTypes.id, dueDay: duesTypes.dueDay }).from(duesTypes),
  ]);
  const billed = Number(totals?.billed ?? 0);
  const paidSum = Number(totals?.paid ?? 0);
  const bills = [...unpaid, ...paid];
  const dueDays = new Map(types.map((t) => [t.id, t.dueDay]));
  const now = ctx.now();
  let overdueSum = 0;
  const items = bills.map((bill) => {
    const dueDay = dueDays.get(bill.typeId) ?? DEFAULT_DUE_DAY;
    const overdue = bill.status !== "lunas" && isOverdue(bill.period, dueDay, now);
    if (overdue) {
      overdueSum += bill.amount - bill.paidAmount;
    }
    return {
      ...presentBill(bill),
      payments: payments.filter((p) => p.billId === bill.id).map(presentOwnPayment),
      dueDate: dueDateOf(bill.period, dueDay),
      overdue,
    };
  });
  const outstanding = billed - paidSum;
  return {
    unitId,
    items,
    totals: {
      billed,
      paid: paidSum,
      outstanding,
      unpaidBills: unpaid.length,
      overdue: overdueSum,
      notYetDue: outstanding - overdueSum,
    },
  };
}

/** The caller's household's bills, unpaid first, with totals; 409 `profile_incomplete` without a unit. */
export async function myDues({ ctx }: { ctx: TenantCtx }) {
  const { unitId } = await requireCompleteProfile({ ctx });
  return duesOfUnit(ctx, unitId);
}

/**
 * The signed-in resident's pending dues: unpaid bills of their household's unit, oldest first, with
 * totals; null when the caller has no unit in this community yet (the assistant, the watch summary).
 */
export async function duesOfCaller({ ctx }: { ctx: TenantCtx }) {
  const unitId = await callerUnitId({ ctx });
  if (!unitId) {
    return null;
  }
  const dues = await duesOfUnit(ctx, unitId);
  return { ...dues, items: dues.items.filter((bill) => bill.status !== "lunas") };
}

/**
 * What a house still owes: how many of its bills are unpaid and their outstanding sum, counted in SQL
 * over the same bills `duesOfCaller` lists (the watch summary shows no more), as one statement for the
 * caller's batch; `presentOwed` reads it.
 */
export function owedQuery(ctx: TenantCtx, unitId: string) {
  return ctx.db
    .select({
      count: sql<number>`count(*)`,
      total: sql<number>`coalesce(sum(${duesBills.amount} - ${duesBills.paidAmount}), 0)`,
    })
    .from(duesBills)
    .where(and(householdBills(unitId), ne(duesBills.status, "lunas")));
}

export function presentOwed([owed]: Awaited<ReturnType<typeof owedQuery>>): { total: number; count: number } {
  return { total: Number(owed?.total ?? 0), count: Number(owed?.count ?? 0) };
}
