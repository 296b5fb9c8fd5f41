import { inArray } from "drizzle-orm";
import type { TenantCtx } from "../../../core/context";
import { clientUrl } from "../../../core/env";
import { Conflict, DomainError, NotFound } from "../../../core/errors";
import { log } from "../../../core/http/log";
import { createPaymentOrder, type PaymentOrder, paymentOrdersFor } from "../../../platform/payments";
import { membershipIn, requireCompleteProfile, userContact } from "../../identity/service";
import { duesBills } from "../tables";
import { loadBill } from "./bills";
import { applyGatewayPayment, applyGatewayPayments } from "./payments";
import type { MultiPayInput } from "./schemas";

/** The payment-order kind of dues bills (`iuran-<ULID>` order ids). */
export const DUES_PAYMENT_KIND = "iuran";

/** A pending order is handed out again while it has at least this long to live. */
const REUSE_MARGIN_MS = 10 * 60_000;

/**
 * A resident pays their household's bill online: one gateway order for what is outstanding, through the
 * shared adapter (src/platform/payments). Asking again while an order for the same amount is still open
 * hands out the same link instead of opening a second order. Another household's bill is 404.
 */
export async function payOnline({ ctx, id }: { ctx: TenantCtx; id: string }) {
  const membership = await membershipIn({ ctx });
  const bill = await loadBill(ctx, id).catch(() => null);
  // A bill settled to a family that moved out (issue 45) is not the unit's next household's to pay.
  if (!bill || !membership?.unitId || bill.unitId !== membership.unitId || bill.movedOutFamilyId !== null) {
    throw new NotFound("Bill");
  }
  await requireCompleteProfile({ ctx });
  if (bill.status === "lunas") {
    throw new Conflict("bill_paid", "This bill is already paid in full.");
  }
  const outstanding = bill.amount - bill.paidAmount;
  const open = (await paymentOrdersFor(ctx, DUES_PAYMENT_KIND, bill.id)).find(
    (o) =>
      o.status === "pending" &&
      o.amount === outstanding &&
      Date.parse(o.expiresAt) > ctx.now().getTime() + REUSE_MARGIN_MS,
  );
  if (open) {
    return { orderId: open.id, paymentUrl: open.paymentUrl, amount: open.amount, expiresAt: open.expiresAt };
  }
  const contact = await userContact({ ctx, id: membership.userId });
  const started = await createPaymentOrder(ctx, {
    kind: DUES_PAYMENT_KIND,
    refId: bill.id,
    amount: outstanding,
    description: `${bill.typeName} ${bill.period} – ${ctx.tenant.name}`,
    customer: {
      name: contact?.name ?? "Warga",
      email: contact?.email ?? null,
      phone: contact?.whatsapp ?? null,
    },
    // Back to the app's dues screen, which shows this order's receipt once the callback has landed.
    returnUrl: (orderId) => `${clientUrl(ctx.env)}/iuran?bayar=${encodeURIComponent(orderId)}`,
  });
  return {
    orderId: started.orderId,
    paymentUrl: started.paymentUrl,
    amount: outstanding,
    expiresAt: started.expiresAt,
  };
}

/**
 * `POST /api/iuran/bayar-online`: several open bills of the caller's household in ONE gateway order (one
 * checkout, one fee), each bill's share being what it still owes. A bill of another household, or of
 * another tenant (not in this tenant's database at all), is 404 like a bill that does not exist, so the
 * answer never tells them apart; a bill paid in full is 409 `bill_paid`. Asking again for the same bills
 * while such an order is open hands out the same link. The callback pays every bill in one batch.
 */
export async function payBillsOnline({ ctx, input }: { ctx: TenantCtx; input: MultiPayInput }) {
  const membership = await membershipIn({ ctx });
  const ids = [...new Set(input.billIds)];
  const rows = await ctx.db.select().from(duesBills).where(inArray(duesBills.id, ids));
  const unitId = membership?.unitId;
  // A bill settled to a family that moved out is that family's debt, never the next occupant's (issue 45).
  if (
    !unitId ||
    rows.length !== ids.length ||
    rows.some((b) => b.unitId !== unitId || b.movedOutFamilyId !== null)
  ) {
    throw new NotFound("Bill");
  }
  await requireCompleteProfile({ ctx });
  return openBillsOrder(ctx, { bills: rows, refId: unitId, userId: membership.userId, returnPath: "/iuran" });
}

type BillRow = typeof duesBills.$inferSelect;

/**
 * ONE gateway order for several open bills (one checkout, one fee), each bill's share being what it
 * still owes; asking again for the same bills while such an order is open hands out the same link. The
 * one way dues bills are paid together: a household's (`payBillsOnline`, by unit) and a moved-out
 * family's debt (`tanggungan.ts`, by family card). The caller has checked the bills are the payer's and
 * open; `refId` groups the payer's orders, `returnPath` is the app's screen the gateway sends them back to.
 */
export async function openBillsOrder(
  ctx: TenantCtx,
  {
    bills: rows,
    refId,
    userId,
    returnPath,
  }: { bills: readonly BillRow[]; refId: string; userId: string; returnPath: string },
) {
  const paid = rows.filter((b) => b.status === "lunas");
  if (paid.length) {
    throw new Conflict("bill_paid", `Already paid in full: ${paid.map((b) => b.id).join(", ")}.`);
  }
  // Oldest period first: the order's lines read like the household's list.
  const bills = [...rows].sort((a, b) => a.period.localeCompare(b.period) || a.id.localeCompare(b.id));
  const items = bills.map((b) => ({ refId: b.id, amount: b.amount - b.paidAmount }));
  const amount = items.reduce((sum, i) => sum + i.amount, 0);
  const key = (list: readonly { refId: string; amount: number }[]) =>
    list
      .map((i) => `${i.refId}:${i.amount}`)
      .sort()
      .join(",");
  const open = (await paymentOrdersFor(ctx, DUES_PAYMENT_KIND, refId)).find(
    (o) =>
      o.status === "pending" &&
      o.items !== null &&
      key(o.items) === key(items) &&
      Date.parse(o.expiresAt) > ctx.now().getTime() + REUSE_MARGIN_MS,
  );
  const lines = items.map((i) => ({ billId: i.refId, amount: i.amount }));
  if (open) {
    return { orderId: open.id, paymentUrl: open.paymentUrl, amount, expiresAt: open.expiresAt, items: lines };
  }
  const contact = await userContact({ ctx, id: userId });
  const periods = [...new Set(bills.map((b) => b.period))];
  const started = await createPaymentOrder(ctx, {
    kind: DUES_PAYMENT_KIND,
    refId,
    items,
    amount,
    description: `Iuran ${bills.length} tagihan (${periods.join(", ")}) – ${ctx.tenant.name}`.slice(0, 250),
    customer: {
      name: contact?.name ?? "Warga",
      email: contact?.email ?? null,
      phone: contact?.whatsapp ?? null,
    },
    returnUrl: (orderId) => `${clientUrl(ctx.env)}${returnPath}?bayar=${encodeURIComponent(orderId)}`,
  });
  return {
    orderId: started.orderId,
    paymentUrl: started.paymentUrl,
    amount,
    expiresAt: started.expiresAt,
    items: lines,
  };
}

/**
 * A paid order: the bill takes the payment once (the order id is unique among payments, so 20
 * callbacks make one payment and one cash entry). When the bill was settled meanwhile in cash the
 * money still arrived: it is logged for the treasurer to refund, and the callback is not failed, since
 * a retry could not change the outcome.
 */
export async function onDuesOrderPaid(ctx: TenantCtx, order: PaymentOrder): Promise<void> {
  if (order.items) {
    const result = await applyGatewayPayments(ctx, {
      orderId: order.id,
      items: order.items,
      paidAt: order.paidAt ?? ctx.now().toISOString(),
    });
    for (const line of result.unapplied) {
      log("warn", "dues_online_payment_unapplied", {
        tenant: ctx.tenant.slug,
        orderId: order.id,
        billId: line.billId,
        amount: line.amount,
        reason: line.reason,
      });
    }
    return;
  }
  try {
    await applyGatewayPayment(ctx, {
      orderId: order.id,
      billId: order.refId,
      amount: order.amount,
      paidAt: order.paidAt ?? ctx.now().toISOString(),
    });
  } catch (error) {
    if (error instanceof DomainError && ["bill_paid", "overpayment", "not_found"].includes(error.code)) {
      log("warn", "dues_online_payment_unapplied", {
        tenant: ctx.tenant.slug,
        orderId: order.id,
        billId: order.refId,
        reason: error.code,
      });
      return;
    }
    throw error;
  }
}
