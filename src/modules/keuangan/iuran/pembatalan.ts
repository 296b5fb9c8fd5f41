import { and, eq, isNull, sql } from "drizzle-orm";
import { audit } from "../../../core/audit";
import type { TenantCtx } from "../../../core/context";
import { isUniqueViolation } from "../../../core/db/errors";
import { rowByIdOrNotFound } from "../../../core/db/rows";
import { Conflict } from "../../../core/errors";
import { requireUser } from "../../../core/http/access";
import { nowIso } from "../../../core/time";
import { postCash, todayJakarta } from "../kas/entries";
import { cashEntries, duesBills, duesPayments } from "../tables";
import { refreshUnitPeriod } from "./balances";
import { type PaymentRow, presentBill, presentPayment } from "./bills";
import type { ReversalInput } from "./schemas";

async function loadPayment(ctx: TenantCtx, id: string): Promise<PaymentRow> {
  return rowByIdOrNotFound(ctx.db, duesPayments, id, "Payment");
}

/**
 * Reverses a dues payment recorded by mistake (the wrong bill, the wrong amount, a transfer that
 * bounced). Nothing is deleted. One batch, with its audit record: the opposite of the payment's cash
 * entry, dated today and linked by `reverses_id` (as `correctCashEntry` does for manual entries); the
 * payment marked reversed (who, when, why); and the bill's paid amount and status recomputed from the
 * payments still standing, with its slot of the kept balances. The unique `reverses_id` decides a race: of two reversals at once one batch
 * lands and the other fails whole (409 `payment_already_reversed`). An online payment came through the
 * gateway and is refunded there, not here.
 */
export async function reversePayment({
  ctx,
  id,
  input,
}: {
  ctx: TenantCtx;
  id: string;
  input: ReversalInput;
}) {
  const user = requireUser(ctx);
  const payment = await loadPayment(ctx, id);
  if (payment.reversedAt) {
    throw new Conflict("payment_already_reversed", "This payment has already been reversed.");
  }
  if (payment.method === "online") {
    throw new Conflict(
      "online_payment_not_reversible",
      "An online payment is refunded at the payment gateway; it is not reversed here.",
    );
  }
  // The bill and the payment's own cash entry, in one round trip.
  const [[bill], [original]] = await ctx.db.batch([
    ctx.db.select().from(duesBills).where(eq(duesBills.id, payment.billId)),
    ctx.db.select().from(cashEntries).where(eq(cashEntries.id, payment.cashEntryId)),
  ]);
  if (!bill) {
    throw new Error(`dues payment ${payment.id} has no bill ${payment.billId}`);
  }
  if (!original) {
    throw new Error(`dues payment ${payment.id} has no cash entry ${payment.cashEntryId}`);
  }
  const reversal = postCash(ctx, {
    kind: original.kind === "masuk" ? "keluar" : "masuk",
    category: original.category,
    amount: original.amount,
    date: todayJakarta(ctx),
    note: `Pembatalan iuran ${bill.typeName} ${bill.period}: ${input.reason}`,
    source: "koreksi",
    sourceId: original.id,
    reversesId: original.id,
  });
  const now = nowIso(ctx);
  const standing = sql`(SELECT coalesce(sum(${duesPayments.amount}), 0) FROM ${duesPayments}
    WHERE ${duesPayments.billId} = ${bill.id} AND ${duesPayments.reversedAt} IS NULL)`;
  try {
    await ctx.db.batch([
      ...reversal.writes,
      ctx.db
        .update(duesPayments)
        .set({
          reversedAt: now,
          reversedBy: user.userId,
          reversalReason: input.reason,
          reversalEntryId: reversal.id,
        })
        .where(and(eq(duesPayments.id, payment.id), isNull(duesPayments.reversedAt))),
      // After the payment above is marked: the bill says what the payments still standing say.
      ctx.db
        .update(duesBills)
        .set({
          paidAmount: sql`${standing}`,
          status: sql`CASE WHEN ${standing} >= ${duesBills.amount} THEN 'lunas' WHEN ${standing} > 0 THEN 'sebagian' ELSE 'belum' END`,
          updatedAt: now,
        })
        .where(eq(duesBills.id, bill.id)),
      ...refreshUnitPeriod(ctx.db, bill),
      audit(ctx, {
        action: "iuran.payment.reverse",
        targetType: "dues_payment",
        targetId: payment.id,
        detail: {
          billId: bill.id,
          amount: payment.amount,
          method: payment.method,
          reason: input.reason,
          cashEntryId: payment.cashEntryId,
          reversalEntryId: reversal.id,
        },
      }),
    ]);
  } catch (error) {
    if (isUniqueViolation(error, "cash_entries.reverses_id")) {
      throw new Conflict("payment_already_reversed", "This payment has already been reversed.");
    }
    throw error;
  }
  // The payment and the bill as the batch left them, in one round trip.
  const [[reversed], [after]] = await ctx.db.batch([
    ctx.db.select().from(duesPayments).where(eq(duesPayments.id, payment.id)),
    ctx.db.select().from(duesBills).where(eq(duesBills.id, bill.id)),
  ]);
  if (!reversed || !after) {
    throw new Error(`dues payment ${payment.id} or its bill vanished after its reversal`);
  }
  return { ...presentPayment(ctx, reversed), billId: bill.id, bill: presentBill(after) };
}
