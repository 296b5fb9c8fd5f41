import { and, eq, inArray, sql } from "drizzle-orm";
import type { BatchItem } from "drizzle-orm/batch";
import { audit } from "../../../core/audit";
import type { TenantCtx } from "../../../core/context";
import { abortBatchUnless, isBatchAborted, isUniqueViolation } from "../../../core/db/errors";
import { Conflict, Invalid } from "../../../core/errors";
import { requireUser } from "../../../core/http/access";
import { newId } from "../../../core/ids";
import { jakartaDay, nowIso } from "../../../core/time";
import { requireTenantFile, tenantFileUrl } from "../../../platform/uploads";
import { postCash } from "../kas/entries";
import { duesBills, duesPayments } from "../tables";
import { refreshUnitPeriod } from "./balances";
import { type BillRow, loadBill, presentBill } from "./bills";
import type { PaymentInput } from "./schemas";

// Paying a dues bill: at the desk (cash or transfer), and by a paid gateway order of one or more bills.

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
