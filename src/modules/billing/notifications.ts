import type { PlatformCtx } from "../../core/context";
import { jakartaDate, rupiah } from "../../core/format";
import { log } from "../../core/http/log";
import { notifyFor } from "../../platform/notify";
import { tenantAdminContacts } from "../identity/service";
import type { billingInvoices } from "./platform-tables";

type InvoiceRow = typeof billingInvoices.$inferSelect;

const TEMPLATES = { issued: "INVOICE_ISSUED", paid: "INVOICE_PAID", reminder: "INVOICE_REMINDER" } as const;

/**
 * Emails the community's admins about an invoice, through the notification service, with an
 * idempotency key naming the invoice and the event (so a retried payment or a repeated daily run
 * sends nothing twice). A failure is logged, never fatal: the invoice is already stored.
 * Returns whether the service accepted the message.
 */
export async function notifyInvoice(
  ctx: PlatformCtx,
  event: keyof typeof TEMPLATES,
  invoice: InvoiceRow,
  tenant: { id: string; name: string },
  extra: { planName?: string; activeUntil?: string; daysLeft?: number } = {},
): Promise<boolean> {
  const admins = (await tenantAdminContacts({ ctx, tenantId: tenant.id })).filter((a) => a.email);
  if (admins.length === 0) {
    return false;
  }
  const key = `billing-invoice:${invoice.id}:${event}${event === "reminder" ? `-${extra.daysLeft}` : ""}`;
  try {
    await notifyFor(ctx.env).sendEmail({
      template: TEMPLATES[event],
      to: admins.map((a) => a.email as string),
      data: {
        name: admins.length === 1 ? (admins[0]?.name ?? "Pengurus") : "Pengurus",
        tenantName: tenant.name,
        invoiceNumber: invoice.number,
        planName: extra.planName ?? invoice.planCode,
        months: String(invoice.months),
        amount: rupiah(invoice.amount),
        dueDate: jakartaDate(invoice.dueAt),
        paymentUrl: invoice.paymentUrl ?? "",
        paidAt: invoice.paidAt ? jakartaDate(invoice.paidAt) : "",
        activeUntil: extra.activeUntil ? jakartaDate(extra.activeUntil) : "",
        daysLeft: String(extra.daysLeft ?? ""),
      },
      idempotencyKey: key,
    });
    return true;
  } catch (err) {
    log("warn", "billing.notify_failed", {
      invoiceId: invoice.id,
      event,
      error: err instanceof Error ? err.message : String(err),
    });
    return false;
  }
}
