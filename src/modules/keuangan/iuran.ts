import { and, asc, desc, eq, getTableColumns, inArray, isNull, ne, type SQL, sql } from "drizzle-orm";
import type { BatchItem } from "drizzle-orm/batch";
import { audit } from "../../core/audit";
import type { TenantCtx } from "../../core/context";
import { abortBatchUnless, isBatchAborted, isUniqueViolation } from "../../core/db/errors";
import { afterCursor, keysetPage } from "../../core/db/paging";
import { rowByIdOrNotFound } from "../../core/db/rows";
import { Conflict, Invalid } from "../../core/errors";
import { requireUser } from "../../core/http/access";
import { newId } from "../../core/ids";
import { jakartaDay, nowIso } from "../../core/time";
import { requireTenantFile, tenantFileUrl } from "../../platform/uploads";
import { requireCompleteProfile } from "../identity/service";
import { refreshUnitPeriod } from "./iuran-balances";
import { postCash } from "./kas";
import { DEFAULT_DUE_DAY, dueDateOf, isOverdue } from "./periods";
import type { BillListQuery, PaymentInput } from "./schemas";
import { duesBills, duesPayments, duesTypes } from "./tables";

export type BillRow = typeof duesBills.$inferSelect;

// --- bills ---------------------------------------------------------------------------------------

export function presentBill(row: BillRow) {
  return {
    id: row.id,
    typeId: row.typeId,
    typeName: row.typeName,
    period: row.period,
    basis: row.basis,
    unitId: row.unitId,
    familyId: row.familyId,
    movedOutFamilyId: row.movedOutFamilyId,
    amount: row.amount,
    paidAmount: row.paidAmount,
    outstanding: row.amount - row.paidAmount,
    status: row.status,
    createdAt: row.createdAt,
  };
}

export type PaymentRow = typeof duesPayments.$inferSelect;

/** A payment as finance sees it, with its reversal once there is one. */
export function presentPayment(ctx: TenantCtx, row: PaymentRow) {
  return {
    id: row.id,
    amount: row.amount,
    method: row.method,
    paidAt: row.paidAt,
    proofUrl: row.proofFileId ? tenantFileUrl(ctx, row.proofFileId) : null,
    cashEntryId: row.cashEntryId,
    reversal:
      row.reversedAt && row.reversalEntryId
        ? {
            at: row.reversedAt,
            by: row.reversedBy,
            reason: row.reversalReason ?? "",
            cashEntryId: row.reversalEntryId,
          }
        : null,
  };
}

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

/** The staff list: bills with their payments (reversed ones included and marked), oldest payment first. */
export async function listBills({ ctx, input }: { ctx: TenantCtx; input: BillListQuery }) {
  const filters: SQL[] = [
    ...afterCursor(duesBills.id, input.cursor, "asc"),
    ...(input.period ? [eq(duesBills.period, input.period)] : []),
    ...(input.status ? [eq(duesBills.status, input.status)] : []),
    // A unit's bills are its current household's: those settled to a family that moved out are not.
    ...(input.unitId ? [eq(duesBills.unitId, input.unitId), isNull(duesBills.movedOutFamilyId)] : []),
  ];
  // One round trip per page (issue 18): each bill's payments ride along as a JSON array of rows, in id
  // order, built by a correlated subquery over the bill index. Table names are spelled out: inside a
  // select's fields drizzle writes a column as its bare name, which the subquery would take as its own.
  const rows = await ctx.db
    .select({
      ...getTableColumns(duesBills),
      payments: sql<string>`(SELECT json_group_array(json(p.row)) FROM (
        SELECT json_object('id', id, 'billId', bill_id, 'amount', amount, 'method', method,
          'paidAt', paid_at, 'gatewayOrderId', gateway_order_id, 'proofFileId', proof_file_id,
          'cashEntryId', cash_entry_id, 'recordedBy', recorded_by, 'reversedAt', reversed_at,
          'reversedBy', reversed_by, 'reversalReason', reversal_reason,
          'reversalEntryId', reversal_entry_id, 'createdAt', created_at) AS row
        FROM dues_payments WHERE bill_id = dues_bills.id ORDER BY id) AS p)`,
    })
    .from(duesBills)
    .where(and(...filters))
    .orderBy(asc(duesBills.id))
    .limit(input.limit + 1);
  const page = keysetPage(rows, input.limit);
  return {
    items: page.items.map(({ payments, ...bill }) => ({
      ...presentBill(bill),
      payments: (JSON.parse(payments) as PaymentRow[]).map((payment) => presentPayment(ctx, payment)),
    })),
    nextCursor: page.nextCursor,
  };
}

export async function loadBill(ctx: Pick<TenantCtx, "db">, id: string): Promise<BillRow> {
  return rowByIdOrNotFound(ctx.db, duesBills, id, "Bill");
}

// --- payments ----------------------------------------------------------------------------------

export interface PaymentFacts {
  amount: number;
  method: "tunai" | "transfer" | "online";
  paidAt: string;
  gatewayOrderId?: string;
  proofFileId?: string;
}

/** 409 `bill_paid` or `overpayment` when the bill cannot take `amount` as last read. */
function refuseUnfit(bill: BillRow, amount: number) {
  if (bill.status === "lunas") {
    throw new Conflict("bill_paid", "This bill is already paid in full.");
  }
  if (bill.paidAmount + amount > bill.amount) {
    throw new Conflict(
      "overpayment",
      `Only Rp${bill.amount - bill.paidAmount} is outstanding on this bill; the payment would exceed it.`,
    );
  }
}

/**
 * The statements of one payment of a bill, for a batch: the conditional UPDATE of the bill, the guard
 * that stops the batch unless that UPDATE was this payment's, the bill's slot of the kept balances, the
 * payment row, its cash-book entry and the audit record. A gateway order of several bills puts each
 * bill's statements in one batch (`applyGatewayPayments`).
 */
function paymentWrites(ctx: TenantCtx, bill: BillRow, facts: PaymentFacts) {
  const paymentId = newId();
  const entry = postCash(ctx, {
    kind: "masuk",
    category: bill.typeName,
    amount: facts.amount,
    date: jakartaDay(facts.paidAt),
    note: `Iuran ${bill.typeName} ${bill.period}${facts.method === "online" ? " (online)" : ""}`,
    source: "iuran",
    sourceId: paymentId,
  });
  const now = nowIso(ctx);
  const writes: [BatchItem<"sqlite">, ...BatchItem<"sqlite">[]] = [
    ctx.db
      .update(duesBills)
      .set({
        paidAmount: sql`${duesBills.paidAmount} + ${facts.amount}`,
        status: sql`CASE WHEN ${duesBills.paidAmount} + ${facts.amount} >= ${duesBills.amount} THEN 'lunas' ELSE 'sebagian' END`,
        lastPaymentId: paymentId,
        updatedAt: now,
      })
      .where(
        and(eq(duesBills.id, bill.id), sql`${duesBills.paidAmount} + ${facts.amount} <= ${duesBills.amount}`),
      ),
    abortBatchUnless(ctx.db, duesBills, bill.id, eq(duesBills.lastPaymentId, paymentId)),
    ...refreshUnitPeriod(ctx.db, bill),
    ctx.db.insert(duesPayments).values({
      id: paymentId,
      billId: bill.id,
      amount: facts.amount,
      method: facts.method,
      paidAt: new Date(facts.paidAt).toISOString(),
      gatewayOrderId: facts.gatewayOrderId ?? null,
      proofFileId: facts.proofFileId ?? null,
      cashEntryId: entry.id,
      recordedBy: ctx.actor.kind === "user" ? ctx.actor.userId : null,
    }),
    ...entry.writes,
    audit(ctx, {
      action: "iuran.payment",
      targetType: "dues_bill",
      targetId: bill.id,
      detail: { paymentId, amount: facts.amount, method: facts.method, cashEntryId: entry.id },
    }),
  ];
  return { paymentId, entry, writes };
}

/**
 * Records a payment: the bill's paid amount moves by a conditional UPDATE that refuses to pass the
 * bill's amount, the guard stops the batch unless that UPDATE was this payment's, and the payment row
 * and its cash-book entry land in the same batch. Two payments racing for the last rupiah: one wins,
 * the other is 409 `overpayment` (or `bill_paid`). The bill's slot of the kept balances is rewritten
 * in the same batch, after the guard.
 */
export async function applyPayment(ctx: TenantCtx, bill: BillRow, facts: PaymentFacts) {
  refuseUnfit(bill, facts.amount);
  const payment = paymentWrites(ctx, bill, facts);
  try {
    await ctx.db.batch(payment.writes);
  } catch (error) {
    if (isBatchAborted(error)) {
      const fresh = await loadBill(ctx, bill.id);
      throw fresh.status === "lunas"
        ? new Conflict("bill_paid", "This bill was paid in full meanwhile.")
        : new Conflict("overpayment", "Another payment arrived meanwhile; this one would exceed the bill.");
    }
    throw error;
  }
  const { paymentId, entry } = payment;
  const after = await loadBill(ctx, bill.id);
  return {
    id: paymentId,
    billId: bill.id,
    amount: facts.amount,
    method: facts.method,
    paidAt: new Date(facts.paidAt).toISOString(),
    proofUrl: facts.proofFileId ? tenantFileUrl(ctx, facts.proofFileId) : null,
    cashEntryId: entry.id,
    reversal: null,
    bill: presentBill(after),
  };
}

export async function recordPayment({ ctx, id, input }: { ctx: TenantCtx; id: string; input: PaymentInput }) {
  requireUser(ctx);
  if (new Date(input.paidAt).getTime() > ctx.now().getTime() + 5 * 60_000) {
    throw new Invalid("invalid_date", "paidAt must not be in the future.", [
      { field: "paidAt", message: "in the future" },
    ]);
  }
  const bill = await loadBill(ctx, id);
  if (input.proofFileId) {
    await requireTenantFile(ctx, input.proofFileId, { purposes: ["bukti_bayar"], field: "proofFileId" });
  }
  return applyPayment(ctx, bill, input);
}

/**
 * A paid gateway order for a bill: applied once. The unique order id on the payment makes a repeated
 * callback a no-op (`applied: false`), and a bill already paid is never moved back.
 */
export async function applyGatewayPayment(
  ctx: TenantCtx,
  order: { orderId: string; billId: string; amount: number; paidAt: string },
): Promise<{ applied: boolean }> {
  const seen = await ctx.db
    .select({ id: duesPayments.id })
    .from(duesPayments)
    .where(eq(duesPayments.gatewayOrderId, order.orderId))
    .get();
  if (seen) {
    return { applied: false };
  }
  try {
    await applyPayment(ctx, await loadBill(ctx, order.billId), {
      amount: order.amount,
      method: "online",
      paidAt: order.paidAt,
      gatewayOrderId: order.orderId,
    });
    return { applied: true };
  } catch (error) {
    if (isUniqueViolation(error, "dues_payments.gateway_order_id")) {
      return { applied: false };
    }
    throw error;
  }
}

/**
 * A paid gateway order of several bills of one household (one checkout, one fee): every bill that can
 * still take its share is paid in ONE batch, so the household never sees half of an order applied. The
 * order id on each payment (unique with the bill) makes a repeated callback a no-op (`applied: false`).
 * A bill settled meanwhile in cash, or gone, cannot take its share: that money is answered in `unapplied`
 * for the treasurer to refund. A payment racing the batch aborts it (the guard), and the error is thrown
 * so the gateway's retry applies the order again against the bills as they then are.
 */
export async function applyGatewayPayments(
  ctx: TenantCtx,
  order: { orderId: string; items: readonly { refId: string; amount: number }[]; paidAt: string },
): Promise<{ applied: boolean; unapplied: { billId: string; amount: number; reason: string }[] }> {
  const seen = async () =>
    (await ctx.db
      .select({ id: duesPayments.id })
      .from(duesPayments)
      .where(eq(duesPayments.gatewayOrderId, order.orderId))
      .get()) !== undefined;
  const none = { applied: false, unapplied: [] };
  if (await seen()) {
    return none;
  }
  const ids = order.items.map((i) => i.refId);
  const bills = new Map(
    (await ctx.db.select().from(duesBills).where(inArray(duesBills.id, ids))).map((b) => [b.id, b]),
  );
  const writes: BatchItem<"sqlite">[] = [];
  const unapplied: { billId: string; amount: number; reason: string }[] = [];
  for (const item of order.items) {
    const bill = bills.get(item.refId);
    const reason = !bill
      ? "not_found"
      : bill.status === "lunas"
        ? "bill_paid"
        : bill.paidAmount + item.amount > bill.amount
          ? "overpayment"
          : null;
    if (reason || !bill) {
      unapplied.push({ billId: item.refId, amount: item.amount, reason: reason ?? "not_found" });
      continue;
    }
    writes.push(
      ...paymentWrites(ctx, bill, {
        amount: item.amount,
        method: "online",
        paidAt: order.paidAt,
        gatewayOrderId: order.orderId,
      }).writes,
    );
  }
  const [first, ...rest] = writes;
  if (!first) {
    // Nothing fit: either another delivery of this order has just paid them all, or the money is unapplied.
    return (await seen()) ? none : { applied: false, unapplied };
  }
  try {
    await ctx.db.batch([first, ...rest]);
    return { applied: true, unapplied };
  } catch (error) {
    // A second delivery racing this one: whichever batch landed first paid the order.
    if ((isUniqueViolation(error) || isBatchAborted(error)) && (await seen())) {
      return none;
    }
    throw error;
  }
}

// --- the resident's own dues -------------------------------------------------------------------

/** How many settled bills the resident's view shows after the unpaid ones. */
const PAID_SHOWN = 12;

async function duesOfUnit(ctx: TenantCtx, unitId: string) {
  // The unit's household's bills: never those settled to a family that moved out (issue 45).
  const ofUnit = and(eq(duesBills.unitId, unitId), isNull(duesBills.movedOutFamilyId));
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

export { duesOfUnit };
