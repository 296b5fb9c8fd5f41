import { and, eq, sql } from "drizzle-orm";
import type { PlatformCtx } from "../../core/context";
import { type SubscriptionStatus, tenants } from "../../core/db/platform-schema";
import { rowById } from "../../core/db/rows";
import { NotFound } from "../../core/errors";
import { addDays, DAY_MS, nowIso } from "../../core/time";
import {
  billingInvoices,
  billingPlans,
  billingSubscriptions,
  type InvoiceHistoryEntry,
} from "./platform-tables";
import type { Invoice } from "./schemas";

/** What every billing verb shares: the subscription, its plan, and how an invoice is shown and written. */

/** The payment kind of subscription invoices: order ids read `langganan-<ULID>`. */
export const BILLING_KIND = "langganan";
export const GRACE_DAYS = 14;
export const TRIAL_DAYS = 30;
/** Days an admin's renewal invoice gives to pay when the subscription ends sooner than that. */
export const MIN_DUE_DAYS = 7;
export const MAX_DUE_DAYS = 60;

export type InvoiceRow = typeof billingInvoices.$inferSelect;
export type SubscriptionRow = typeof billingSubscriptions.$inferSelect;
export type PlanRow = typeof billingPlans.$inferSelect;

export function presentInvoice(row: InvoiceRow): Invoice {
  return {
    id: row.id,
    number: row.number,
    tenantId: row.tenantId,
    plan: row.planCode,
    months: row.months,
    amount: row.amount,
    note: row.note,
    dueAt: row.dueAt,
    status: row.status,
    orderId: row.orderId,
    paymentUrl: row.status === "issued" ? row.paymentUrl : null,
    paymentReference: row.paymentReference,
    paidAt: row.paidAt,
    voidedAt: row.voidedAt,
    voidReason: row.voidReason,
    history: row.history,
    createdAt: row.createdAt,
  };
}

/** What the subscription's dates say at `at`: paid or trial until `activeUntil`, then 14 days of grace. */
export function subscriptionStatusAt(
  sub: Pick<SubscriptionRow, "status" | "activeUntil">,
  at: Date,
): SubscriptionStatus {
  const until = new Date(sub.activeUntil).getTime();
  if (at.getTime() < until) {
    return sub.status === "trial" ? "trial" : "aktif";
  }
  return at.getTime() < until + GRACE_DAYS * DAY_MS ? "tenggang" : "nonaktif";
}

export function presentSubscription(sub: SubscriptionRow, at: Date) {
  return {
    tenantId: sub.tenantId,
    plan: sub.planCode,
    status: subscriptionStatusAt(sub, at),
    activeUntil: sub.activeUntil,
    graceUntil: addDays(sub.activeUntil, GRACE_DAYS).toISOString(),
  };
}

/** A tenant without a subscription row (created before billing, or just now) is on a 30-day trial. */
export async function ensureSubscription(ctx: PlatformCtx, tenantId: string): Promise<SubscriptionRow> {
  const found = await ctx.platform
    .select()
    .from(billingSubscriptions)
    .where(eq(billingSubscriptions.tenantId, tenantId))
    .get();
  if (found) {
    return found;
  }
  const tenant = await rowById(ctx.platform, tenants, tenantId);
  if (!tenant) {
    throw new NotFound("Tenant", "tenant_not_found");
  }
  await ctx.platform
    .insert(billingSubscriptions)
    .values({
      tenantId,
      planCode: "dasar",
      status: "trial",
      activeUntil: addDays(tenant.createdAt, TRIAL_DAYS).toISOString(),
      updatedAt: nowIso(ctx),
    })
    .onConflictDoNothing();
  return (await ctx.platform
    .select()
    .from(billingSubscriptions)
    .where(eq(billingSubscriptions.tenantId, tenantId))
    .get()) as SubscriptionRow;
}

export async function loadPlan(ctx: PlatformCtx, code: string): Promise<PlanRow> {
  const plan = await ctx.platform.select().from(billingPlans).where(eq(billingPlans.code, code)).get();
  if (!plan?.active) {
    throw new NotFound("Plan", "plan_not_found");
  }
  return plan;
}

/** `history` grows by SQL, so two writers never overwrite each other's entries. */
export const appendHistory = (entry: InvoiceHistoryEntry) =>
  sql`json_insert(${billingInvoices.history}, '$[#]', json(${JSON.stringify(entry)}))`;

export function actorLabel(ctx: PlatformCtx): string {
  switch (ctx.actor.kind) {
    case "user":
      return ctx.actor.roles.includes("super_admin")
        ? `operator:${ctx.actor.userId}`
        : `admin:${ctx.actor.userId}`;
    case "system":
      return "system";
    default:
      return ctx.actor.kind;
  }
}

export function jakartaYearMonth(at: Date): { year: number; month: string } {
  const wib = new Date(at.getTime() + 7 * 3_600_000);
  return { year: wib.getUTCFullYear(), month: String(wib.getUTCMonth() + 1).padStart(2, "0") };
}

/** One of a tenant's invoices, or undefined: an invoice id from another tenant reads as none. */
export function tenantInvoice(ctx: PlatformCtx, tenantId: string, invoiceId: string) {
  return ctx.platform
    .select()
    .from(billingInvoices)
    .where(and(eq(billingInvoices.id, invoiceId), eq(billingInvoices.tenantId, tenantId)))
    .get();
}

/** Writes a subscription's status and its mirror on `tenants` (which the guard reads) together. */
export function statusWrites(
  ctx: PlatformCtx,
  tenantId: string,
  status: SubscriptionStatus,
  extra: Partial<SubscriptionRow> = {},
) {
  const now = nowIso(ctx);
  return [
    ctx.platform
      .update(billingSubscriptions)
      .set({ status, ...extra, updatedAt: now })
      .where(eq(billingSubscriptions.tenantId, tenantId)),
    ctx.platform
      .update(tenants)
      .set({ subscriptionStatus: status, updatedAt: now })
      .where(eq(tenants.id, tenantId)),
  ] as const;
}
