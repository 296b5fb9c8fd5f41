import { and, asc, desc, eq, inArray, isNull, lt, ne, type SQL, sql } from "drizzle-orm";
import type { BatchItem } from "drizzle-orm/batch";
import { platformAudit } from "../../core/audit";
import type { PlatformCtx, TenantCtx } from "../../core/context";
import { abortBatchUnless, isBatchAborted, isUniqueViolation } from "../../core/db/errors";
import { keysetPage } from "../../core/db/paging";
import { type SubscriptionStatus, tenants } from "../../core/db/platform-schema";
import { rowById } from "../../core/db/rows";
import { Conflict, NotFound } from "../../core/errors";
import { requireUser } from "../../core/http/access";
import { log } from "../../core/http/log";
import { newId } from "../../core/ids";
import { createPaymentOrder, type PaymentOrder } from "../../core/payments";
import { forgetTenant, tenantRowById } from "../../core/tenancy/contexts";
import { addDays, DAY_MS, nowIso } from "../../core/time";
import { userContact } from "../identity/service";
import { notifyInvoice } from "./notifications";
import {
  billingInvoices,
  billingPlans,
  billingSubscriptions,
  type InvoiceHistoryEntry,
} from "./platform-tables";
import type {
  CreatePlanInput,
  Invoice,
  InvoiceListQuery,
  IssueInvoiceInput,
  OperatorInvoiceInput,
  VoidInvoiceInput,
} from "./schemas";

/** The payment kind of subscription invoices: order ids read `langganan-<ULID>`. */
export const BILLING_KIND = "langganan";
export const GRACE_DAYS = 14;
export const TRIAL_DAYS = 30;
/** Days an admin's renewal invoice gives to pay when the subscription ends sooner than that. */
const MIN_DUE_DAYS = 7;
const MAX_DUE_DAYS = 60;

type InvoiceRow = typeof billingInvoices.$inferSelect;
type SubscriptionRow = typeof billingSubscriptions.$inferSelect;
type PlanRow = typeof billingPlans.$inferSelect;

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

function presentSubscription(sub: SubscriptionRow, at = new Date()) {
  return {
    tenantId: sub.tenantId,
    plan: sub.planCode,
    status: subscriptionStatusAt(sub, at),
    activeUntil: sub.activeUntil,
    graceUntil: addDays(sub.activeUntil, GRACE_DAYS).toISOString(),
  };
}

/** A tenant without a subscription row (created before billing, or just now) is on a 30-day trial. */
async function ensureSubscription(ctx: PlatformCtx, tenantId: string): Promise<SubscriptionRow> {
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
      updatedAt: nowIso(),
    })
    .onConflictDoNothing();
  return (await ctx.platform
    .select()
    .from(billingSubscriptions)
    .where(eq(billingSubscriptions.tenantId, tenantId))
    .get()) as SubscriptionRow;
}

async function loadPlan(ctx: PlatformCtx, code: string): Promise<PlanRow> {
  const plan = await ctx.platform.select().from(billingPlans).where(eq(billingPlans.code, code)).get();
  if (!plan?.active) {
    throw new NotFound("Plan", "plan_not_found");
  }
  return plan;
}

/** `history` grows by SQL, so two writers never overwrite each other's entries. */
const appendHistory = (entry: InvoiceHistoryEntry) =>
  sql`json_insert(${billingInvoices.history}, '$[#]', json(${JSON.stringify(entry)}))`;

function actorLabel(ctx: PlatformCtx): string {
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

function jakartaYearMonth(at: Date): { year: number; month: string } {
  const wib = new Date(at.getTime() + 7 * 3_600_000);
  return { year: wib.getUTCFullYear(), month: String(wib.getUTCMonth() + 1).padStart(2, "0") };
}

interface NewInvoice {
  tenant: { id: string; slug: string; name: string };
  plan: PlanRow;
  months: number;
  amount: number;
  note: string | null;
  dueAt: Date;
  customer: { name: string; email?: string | null; phone?: string | null };
  /** An admin's new invoice replaces their open one; the operator's stands beside it. */
  replaceOpen: boolean;
}

/**
 * Issues an invoice: the checkout is made first (so the invoice is written once, with its payment
 * URL), then the invoice takes the next number of its year inside its own INSERT. D1 runs one write
 * at a time, so concurrent issues read different maxima; the unique (year, seq) index refuses a
 * duplicate outright, and a refused insert consumes no number, so the sequence has no gaps.
 */
async function issue(ctx: PlatformCtx, input: NewInvoice): Promise<InvoiceRow> {
  const id = newId();
  const payment = await createPaymentOrder(
    { ...ctx, tenant: input.tenant },
    {
      kind: BILLING_KIND,
      refId: id,
      amount: input.amount,
      description: `Langganan Warga ${input.plan.name} ${input.months} bulan – ${input.tenant.name}`,
      customer: input.customer,
      expiresAt: input.dueAt,
    },
  );
  const now = new Date();
  const { year, month } = jakartaYearMonth(now);
  const by = actorLabel(ctx);
  const next = sql`(SELECT COALESCE(MAX(${billingInvoices.seq}), 0) + 1 FROM ${billingInvoices} WHERE ${billingInvoices.year} = ${year})`;
  const values = {
    id,
    number: sql`(SELECT ${`INV/${year}/${month}/`} || printf('%04d', COALESCE(MAX(${billingInvoices.seq}), 0) + 1) FROM ${billingInvoices} WHERE ${billingInvoices.year} = ${year})`,
    year,
    seq: next,
    tenantId: input.tenant.id,
    planCode: input.plan.code,
    months: input.months,
    amount: input.amount,
    note: input.note,
    dueAt: input.dueAt.toISOString(),
    status: "issued" as const,
    orderId: payment.orderId,
    paymentUrl: payment.paymentUrl,
    history: [{ status: "issued", at: now.toISOString(), by, ...(input.note ? { note: input.note } : {}) }],
    issuedBy: ctx.actor.kind === "user" ? ctx.actor.userId : null,
    writeId: newId(),
    updatedAt: now.toISOString(),
  };
  const replaced: BatchItem<"sqlite">[] = input.replaceOpen
    ? [
        ctx.platform
          .update(billingInvoices)
          .set({
            status: "void",
            paymentUrl: null,
            history: appendHistory({ status: "void", at: now.toISOString(), by, note: `diganti ${id}` }),
            updatedAt: now.toISOString(),
          })
          .where(
            and(
              eq(billingInvoices.tenantId, input.tenant.id),
              eq(billingInvoices.status, "issued"),
              ne(billingInvoices.id, id),
            ),
          ),
      ]
    : [];
  for (let attempt = 0; ; attempt++) {
    try {
      await ctx.platform.batch([
        ctx.platform.insert(billingInvoices).values(values),
        ...replaced,
        platformAudit(ctx, {
          action: "billing.invoice_issued",
          targetType: "billing_invoice",
          targetId: id,
          tenantId: input.tenant.id,
          detail: {
            plan: input.plan.code,
            months: input.months,
            amount: input.amount,
            orderId: payment.orderId,
          },
        }),
      ]);
      break;
    } catch (err) {
      const lostNumber =
        isUniqueViolation(err, "billing_invoices.seq") || isUniqueViolation(err, "billing_invoices.number");
      if (attempt < 3 && lostNumber) {
        continue;
      }
      throw err;
    }
  }
  const row = (await rowById(ctx.platform, billingInvoices, id)) as InvoiceRow;
  await notifyInvoice(ctx, "issued", row, input.tenant, { planName: input.plan.name });
  return row;
}

/** `POST /api/billing/invoices`: the admin renews (or changes plan) for `months`, at the plan's price. */
export async function issueInvoice({ ctx, input }: { ctx: TenantCtx; input: IssueInvoiceInput }) {
  const plan = await loadPlan(ctx, input.plan);
  const sub = await ensureSubscription(ctx, ctx.tenant.id);
  const now = Date.now();
  // Due when the current period ends (renew before it runs out), but never in less than 7 days.
  const dueMs = Math.min(
    Math.max(new Date(sub.activeUntil).getTime(), now + MIN_DUE_DAYS * DAY_MS),
    now + MAX_DUE_DAYS * DAY_MS,
  );
  const admin = await userContact({ ctx, id: requireUser(ctx).userId });
  const row = await issue(ctx, {
    tenant: ctx.tenant,
    plan,
    months: input.months,
    amount: plan.pricePerMonth * input.months,
    note: null,
    dueAt: new Date(dueMs),
    customer: { name: admin?.name ?? ctx.tenant.name, email: admin?.email, phone: admin?.whatsapp },
    replaceOpen: true,
  });
  return presentInvoice(row);
}

/** `POST /api/platform/tenants/:id/invoices`: the operator may set any amount, a note and the days to pay. */
export async function issueOperatorInvoice({
  ctx,
  id,
  input,
}: {
  ctx: PlatformCtx;
  id: string;
  input: OperatorInvoiceInput;
}) {
  const tenant = await tenantRowById(ctx, id);
  const plan = await loadPlan(ctx, input.plan);
  await ensureSubscription(ctx, tenant.id);
  const row = await issue(ctx, {
    tenant,
    plan,
    months: input.months,
    amount: input.amount ?? plan.pricePerMonth * input.months,
    note: input.note ?? null,
    dueAt: addDays(new Date(), input.dueInDays ?? MIN_DUE_DAYS),
    customer: { name: tenant.name },
    replaceOpen: false,
  });
  return presentInvoice(row);
}

async function invoicePage(ctx: PlatformCtx, tenantId: string, input: InvoiceListQuery) {
  const conditions: (SQL | undefined)[] = [
    eq(billingInvoices.tenantId, tenantId),
    input.status ? eq(billingInvoices.status, input.status) : undefined,
    input.cursor ? lt(billingInvoices.id, input.cursor) : undefined,
  ];
  const rows = await ctx.platform
    .select()
    .from(billingInvoices)
    .where(and(...conditions))
    .orderBy(desc(billingInvoices.id))
    .limit(input.limit + 1);
  const page = keysetPage(rows, input.limit);
  const sub = await ensureSubscription(ctx, tenantId);
  return {
    items: page.items.map(presentInvoice),
    nextCursor: page.nextCursor,
    subscription: presentSubscription(sub),
  };
}

export function listInvoices({ ctx, input }: { ctx: TenantCtx; input: InvoiceListQuery }) {
  return invoicePage(ctx, ctx.tenant.id, input);
}

export async function listOperatorInvoices({
  ctx,
  id,
  input,
}: {
  ctx: PlatformCtx;
  id: string;
  input: InvoiceListQuery;
}) {
  const tenant = await tenantRowById(ctx, id);
  return invoicePage(ctx, tenant.id, input);
}

/**
 * `POST /api/platform/tenants/:id/invoices/:invoiceId/void`: the operator voids an unpaid invoice
 * (issued, expired, or already replaced by the admin's newer one) with a reason. A voided invoice is
 * not payable: its URL is withdrawn, and a payment the gateway still settles for it is refused and
 * recorded (`onInvoicePaid`). A paid invoice is 409 `invoice_paid` (a refund happens at the gateway).
 * The UPDATE is conditional and stamps `write_id`, so a payment or another void landing first stops
 * the batch, audit record included.
 */
export async function voidInvoice({
  ctx,
  id,
  invoiceId,
  input,
}: {
  ctx: PlatformCtx;
  id: string;
  invoiceId: string;
  input: VoidInvoiceInput;
}) {
  const operator = requireUser(ctx);
  const tenant = await tenantRowById(ctx, id);
  const load = () => tenantInvoice(ctx, tenant.id, invoiceId);
  const invoice = await load();
  if (!invoice) {
    throw new NotFound("Invoice", "invoice_not_found");
  }
  const refusal = (row: InvoiceRow) =>
    row.status === "paid"
      ? new Conflict("invoice_paid", "A paid invoice cannot be voided; a refund happens at the gateway.")
      : new Conflict("invoice_already_void", "This invoice has already been voided.");
  if (invoice.status === "paid" || invoice.voidedAt) {
    throw refusal(invoice);
  }
  const now = nowIso();
  const writeId = newId();
  try {
    await ctx.platform.batch([
      ctx.platform
        .update(billingInvoices)
        .set({
          status: "void",
          paymentUrl: null,
          voidedAt: now,
          voidedBy: operator.userId,
          voidReason: input.reason,
          history: appendHistory({ status: "void", at: now, by: actorLabel(ctx), note: input.reason }),
          writeId,
          updatedAt: now,
        })
        .where(
          and(
            eq(billingInvoices.id, invoice.id),
            ne(billingInvoices.status, "paid"),
            isNull(billingInvoices.voidedAt),
          ),
        ),
      abortBatchUnless(ctx.platform, billingInvoices, invoice.id, eq(billingInvoices.writeId, writeId)),
      platformAudit(ctx, {
        action: "billing.invoice_voided",
        targetType: "billing_invoice",
        targetId: invoice.id,
        tenantId: tenant.id,
        detail: {
          number: invoice.number,
          amount: invoice.amount,
          from: invoice.status,
          reason: input.reason,
        },
      }),
    ]);
  } catch (err) {
    if (isBatchAborted(err)) {
      throw refusal((await load()) ?? invoice);
    }
    throw err;
  }
  return presentInvoice((await load()) as InvoiceRow);
}

/** One of a tenant's invoices, or undefined: an invoice id from another tenant reads as none. */
function tenantInvoice(ctx: PlatformCtx, tenantId: string, invoiceId: string) {
  return ctx.platform
    .select()
    .from(billingInvoices)
    .where(and(eq(billingInvoices.id, invoiceId), eq(billingInvoices.tenantId, tenantId)))
    .get();
}

/** Writes a subscription's status and its mirror on `tenants` (which the guard reads) together. */
function statusWrites(
  ctx: PlatformCtx,
  tenantId: string,
  status: SubscriptionStatus,
  extra: Partial<SubscriptionRow> = {},
) {
  const now = nowIso();
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

/**
 * The payment handler (core/payments): a settled order marks its invoice paid and extends the
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
  const now = nowIso();
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
  const now = nowIso();
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
  const now = nowIso();
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
  const missing = await ctx.platform
    .select({ id: tenants.id })
    .from(tenants)
    .leftJoin(billingSubscriptions, eq(billingSubscriptions.tenantId, tenants.id))
    .where(isNull(billingSubscriptions.tenantId));
  for (const t of missing) {
    await ensureSubscription(ctx, t.id);
    report.trialsStarted++;
  }

  const atIso = at.toISOString();
  const due = await ctx.platform
    .select()
    .from(billingInvoices)
    .where(and(eq(billingInvoices.status, "issued"), lt(billingInvoices.dueAt, addDays(at, 7).toISOString())))
    .orderBy(asc(billingInvoices.dueAt));
  const tenantCache = new Map<string, { id: string; slug: string; name: string }>();
  const tenantOf = async (id: string) => {
    let t = tenantCache.get(id);
    if (!t) {
      t = await tenantRowById(ctx, id);
      tenantCache.set(id, t);
    }
    return t;
  };
  for (const invoice of due) {
    const left = new Date(invoice.dueAt).getTime() - at.getTime();
    if (left <= 0) {
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
      report.expired += changed[0].length;
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
  return report;
}

export async function listPlans({ ctx, includeInactive }: { ctx: PlatformCtx; includeInactive: boolean }) {
  const rows = await ctx.platform
    .select()
    .from(billingPlans)
    .where(includeInactive ? undefined : eq(billingPlans.active, true))
    .orderBy(asc(billingPlans.pricePerMonth));
  return {
    items: rows.map((p) => ({
      code: p.code,
      name: p.name,
      pricePerMonth: p.pricePerMonth,
      maxResidents: p.maxResidents,
      description: p.description,
      active: p.active,
    })),
  };
}

/** `POST /api/platform/billing/plans`: the operator adds a plan (codes are permanent). */
export async function createPlan({ ctx, input }: { ctx: PlatformCtx; input: CreatePlanInput }) {
  const now = nowIso();
  try {
    await ctx.platform.batch([
      ctx.platform.insert(billingPlans).values({
        code: input.code,
        name: input.name,
        pricePerMonth: input.pricePerMonth,
        maxResidents: input.maxResidents ?? null,
        description: input.description ?? "",
        updatedAt: now,
      }),
      platformAudit(ctx, {
        action: "billing.plan_created",
        targetType: "billing_plan",
        targetId: input.code,
        tenantId: null,
        detail: { pricePerMonth: input.pricePerMonth, maxResidents: input.maxResidents ?? null },
      }),
    ]);
  } catch (err) {
    if (isUniqueViolation(err, "billing_plans.code")) {
      throw new Conflict("plan_exists", `A plan with the code ${input.code} exists.`);
    }
    throw err;
  }
  const plan = await loadPlan(ctx, input.code);
  return {
    code: plan.code,
    name: plan.name,
    pricePerMonth: plan.pricePerMonth,
    maxResidents: plan.maxResidents,
    description: plan.description,
    active: plan.active,
  };
}
