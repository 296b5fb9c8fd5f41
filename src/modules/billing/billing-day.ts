import { and, asc, eq, isNull, lt } from "drizzle-orm";
import { platformAudit } from "../../core/audit";
import type { PlatformCtx } from "../../core/context";
import { tenants } from "../../core/db/platform-schema";
import { forgetTenant, tenantRowById } from "../../core/tenancy/contexts";
import { addDays, DAY_MS } from "../../core/time";
import { notifyInvoice } from "./notifications";
import { billingInvoices, billingSubscriptions } from "./platform-tables";
import {
  appendHistory,
  ensureSubscription,
  type InvoiceRow,
  statusWrites,
  subscriptionStatusAt,
} from "./subscriptions";

export interface DailyReport {
  [key: string]: number;
  trialsStarted: number;
  expired: number;
  reminders: number;
  statusChanges: number;
}

/**
 * The daily run (00:05 WIB): starts trials for tenants without a subscription, sends the 7- and
 * 1-day reminders, expires invoices past their due date and moves subscriptions through
 * aktif → tenggang → nonaktif by their dates. Every step is conditional, so a repeated run for the
 * same `at` changes and sends nothing new.
 */
export async function runBillingDay(ctx: PlatformCtx, at: Date): Promise<DailyReport> {
  const report: DailyReport = { trialsStarted: 0, expired: 0, reminders: 0, statusChanges: 0 };
  await startMissingTrials(ctx, report);
  const tenantOf = tenantLookup(ctx);
  await expireAndRemind(ctx, at, report, tenantOf);
  await moveSubscriptions(ctx, at, report, tenantOf);
  return report;
}

type TenantOf = (id: string) => Promise<{ id: string; slug: string; name: string }>;

/** Each tenant read once a run, however many of its invoices and subscriptions need it. */
function tenantLookup(ctx: PlatformCtx): TenantOf {
  const tenantCache = new Map<string, { id: string; slug: string; name: string }>();
  return async (id: string) => {
    let t = tenantCache.get(id);
    if (!t) {
      t = await tenantRowById(ctx, id);
      tenantCache.set(id, t);
    }
    return t;
  };
}

/** Tenants without a subscription row start their trial. */
async function startMissingTrials(ctx: PlatformCtx, report: DailyReport) {
  const missing = await ctx.platform
    .select({ id: tenants.id })
    .from(tenants)
    .leftJoin(billingSubscriptions, eq(billingSubscriptions.tenantId, tenants.id))
    .where(isNull(billingSubscriptions.tenantId));
  for (const t of missing) {
    await ensureSubscription(ctx, t.id);
    report.trialsStarted++;
  }
}

/** Invoices due within 7 days: past their date they expire, otherwise the 7- or 1-day reminder goes once. */
async function expireAndRemind(ctx: PlatformCtx, at: Date, report: DailyReport, tenantOf: TenantOf) {
  const atIso = at.toISOString();
  const due = await ctx.platform
    .select()
    .from(billingInvoices)
    .where(and(eq(billingInvoices.status, "issued"), lt(billingInvoices.dueAt, addDays(at, 7).toISOString())))
    .orderBy(asc(billingInvoices.dueAt));
  for (const invoice of due) {
    const left = new Date(invoice.dueAt).getTime() - at.getTime();
    if (left <= 0) {
      report.expired += await expireInvoice(ctx, invoice, atIso);
      continue;
    }
    const which = left <= DAY_MS ? 1 : 7;
    const column = which === 1 ? billingInvoices.remindedAt1 : billingInvoices.remindedAt7;
    if ((which === 1 ? invoice.remindedAt1 : invoice.remindedAt7) !== null) {
      continue;
    }
    const sent = await notifyInvoice(ctx, "reminder", invoice, await tenantOf(invoice.tenantId), {
      daysLeft: which,
    });
    if (sent) {
      await ctx.platform
        .update(billingInvoices)
        .set(which === 1 ? { remindedAt1: atIso } : { remindedAt7: atIso })
        .where(and(eq(billingInvoices.id, invoice.id), isNull(column)));
      report.reminders++;
    }
  }
}

/** Expires one issued invoice with its audit record; answers 1 if this run expired it, else 0. */
async function expireInvoice(ctx: PlatformCtx, invoice: InvoiceRow, atIso: string): Promise<number> {
  const changed = await ctx.platform.batch([
    ctx.platform
      .update(billingInvoices)
      .set({
        status: "expired",
        paymentUrl: null,
        history: appendHistory({ status: "expired", at: atIso, by: "system" }),
        updatedAt: atIso,
      })
      .where(and(eq(billingInvoices.id, invoice.id), eq(billingInvoices.status, "issued")))
      .returning({ id: billingInvoices.id }),
    platformAudit(ctx, {
      action: "billing.invoice_expired",
      targetType: "billing_invoice",
      targetId: invoice.id,
      tenantId: invoice.tenantId,
    }),
  ]);
  return changed[0].length;
}

/** Subscriptions whose dates now say another status move to it (aktif → tenggang → nonaktif). */
async function moveSubscriptions(ctx: PlatformCtx, at: Date, report: DailyReport, tenantOf: TenantOf) {
  const subs = await ctx.platform.select().from(billingSubscriptions);
  for (const sub of subs) {
    const status = subscriptionStatusAt(sub, at);
    if (status === sub.status) {
      continue;
    }
    const tenant = await tenantOf(sub.tenantId);
    await ctx.platform.batch([
      ...statusWrites(ctx, sub.tenantId, status),
      platformAudit(ctx, {
        action: "billing.subscription_status",
        targetType: "tenant",
        targetId: sub.tenantId,
        tenantId: sub.tenantId,
        detail: { from: sub.status, to: status, activeUntil: sub.activeUntil },
      }),
    ]);
    forgetTenant(tenant.slug);
    report.statusChanges++;
  }
}
