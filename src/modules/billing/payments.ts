import { and, eq, inArray, isNull, sql } from "drizzle-orm";
import { platformAudit } from "../../core/audit";
import type { TenantCtx } from "../../core/context";
import { abortBatchUnless, isBatchAborted } from "../../core/db/errors";
import { rowById } from "../../core/db/rows";
import { log } from "../../core/http/log";
import { newId } from "../../core/ids";
import { forgetTenant } from "../../core/tenancy/contexts";
import { nowIso } from "../../core/time";
import type { PaymentOrder } from "../../platform/payments";
import { notifyInvoice } from "./notifications";
import { billingInvoices, billingSubscriptions } from "./platform-tables";
import {
  appendHistory,
  ensureSubscription,
  type InvoiceRow,
  statusWrites,
  tenantInvoice,
} from "./subscriptions";

/**
 * The payment handler (platform/payments): a settled order marks its invoice paid and extends the
 * subscription by the invoice's months from the later of now and the current end. Called again for
 * the same order (a retried callback), the guard on `write_id` stops the second extension. An invoice
 * the operator voided is not paid: the conditional UPDATE refuses it, and the refusal is recorded.
 */
export async function onInvoicePaid(ctx: TenantCtx, order: PaymentOrder): Promise<void> {
  const invoice = await tenantInvoice(ctx, ctx.tenant.id, order.refId);
  if (!invoice || invoice.status === "paid" || invoice.orderId !== order.id) {
    return;
  }
  await ensureSubscription(ctx, ctx.tenant.id);
  const now = nowIso(ctx);
  const writeId = newId();
  try {
    await ctx.platform.batch([
      ctx.platform
        .update(billingInvoices)
        .set({
          status: "paid",
          paidAt: now,
          paymentReference: order.paymentReference,
          paymentUrl: null,
          history: appendHistory({
            status: "paid",
            at: now,
            by: `gateway:${order.gateway}`,
            ...(invoice.status !== "issued" ? { note: `dibayar setelah ${invoice.status}` } : {}),
          }),
          writeId,
          updatedAt: now,
        })
        // A late payment of an expired or replaced invoice still counts; one the operator voided does
        // not (`voided_at`), and this condition, not a read before it, is what refuses it.
        .where(
          and(
            eq(billingInvoices.id, invoice.id),
            inArray(billingInvoices.status, ["issued", "expired", "void"]),
            isNull(billingInvoices.voidedAt),
          ),
        ),
      abortBatchUnless(ctx.platform, billingInvoices, invoice.id, eq(billingInvoices.writeId, writeId)),
      ...statusWrites(ctx, ctx.tenant.id, "aktif", {
        planCode: invoice.planCode,
        activeUntil:
          sql`strftime('%Y-%m-%dT%H:%M:%fZ', max(${billingSubscriptions.activeUntil}, ${now}), ${`+${invoice.months} months`})` as unknown as string,
      }),
      platformAudit(ctx, {
        action: "billing.invoice_paid",
        targetType: "billing_invoice",
        targetId: invoice.id,
        detail: { orderId: order.id, amount: order.amount, reference: order.paymentReference },
      }),
    ]);
  } catch (err) {
    if (isBatchAborted(err)) {
      const fresh = await rowById(ctx.platform, billingInvoices, invoice.id);
      if (fresh?.voidedAt && fresh.status !== "paid") {
        await refusePayment(ctx, fresh, order);
      }
      return;
    }
    throw err;
  }
  forgetTenant(ctx.tenant.slug);
  const paid = (await rowById(ctx.platform, billingInvoices, invoice.id)) as InvoiceRow;
  const sub = await ensureSubscription(ctx, ctx.tenant.id);
  await notifyInvoice(ctx, "paid", paid, ctx.tenant, { activeUntil: sub.activeUntil });
}

/**
 * The gateway settled an order of an invoice the operator had voided: the invoice stays void and the
 * subscription is not extended. The money did arrive, so the callback is not failed (a retry could not
 * change the outcome); it is recorded on the invoice, in the audit and the log for the operator to
 * refund. Once per order: a re-applied callback finds its history entry.
 */
async function refusePayment(ctx: TenantCtx, invoice: InvoiceRow, order: PaymentOrder) {
  if (invoice.history.some((h) => h.status === "payment_refused" && h.note === order.id)) {
    return;
  }
  const now = nowIso(ctx);
  const writeId = newId();
  // Deliveries arriving together may all apply the order: the entry is written only where it is not
  // yet, and the guard keeps the audit record to the one that wrote it.
  const recorded = sql`EXISTS (SELECT 1 FROM json_each(${billingInvoices.history})
    WHERE json_extract(value, '$.status') = 'payment_refused' AND json_extract(value, '$.note') = ${order.id})`;
  try {
    await ctx.platform.batch([
      ctx.platform
        .update(billingInvoices)
        .set({
          history: appendHistory({
            status: "payment_refused",
            at: now,
            by: `gateway:${order.gateway}`,
            note: order.id,
          }),
          writeId,
          updatedAt: now,
        })
        .where(and(eq(billingInvoices.id, invoice.id), sql`NOT ${recorded}`)),
      abortBatchUnless(ctx.platform, billingInvoices, invoice.id, eq(billingInvoices.writeId, writeId)),
      platformAudit(ctx, {
        action: "billing.payment_refused",
        targetType: "billing_invoice",
        targetId: invoice.id,
        detail: {
          orderId: order.id,
          amount: order.amount,
          reference: order.paymentReference,
          reason: "invoice_void",
        },
      }),
    ]);
  } catch (err) {
    if (isBatchAborted(err)) {
      return;
    }
    throw err;
  }
  log("warn", "billing_payment_after_void", {
    tenant: ctx.tenant.slug,
    invoiceId: invoice.id,
    orderId: order.id,
    amount: order.amount,
  });
}

/** A refund or chargeback: recorded on the invoice for the operator, who decides what follows. */
export async function onInvoiceReversed(ctx: TenantCtx, order: PaymentOrder): Promise<void> {
  const invoice = await tenantInvoice(ctx, ctx.tenant.id, order.refId);
  if (!invoice || invoice.history.some((h) => h.status === "reversed" && h.note === order.id)) {
    return;
  }
  const now = nowIso(ctx);
  await ctx.platform.batch([
    ctx.platform
      .update(billingInvoices)
      .set({
        history: appendHistory({
          status: "reversed",
          at: now,
          by: `gateway:${order.gateway}`,
          note: order.id,
        }),
        updatedAt: now,
      })
      .where(eq(billingInvoices.id, invoice.id)),
    platformAudit(ctx, {
      action: "billing.payment_reversed",
      targetType: "billing_invoice",
      targetId: invoice.id,
      detail: { orderId: order.id, gatewayStatus: order.gatewayStatus },
    }),
  ]);
}
