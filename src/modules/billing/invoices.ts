import { and, desc, eq, isNull, lt, ne, type SQL, sql } from "drizzle-orm";
import type { BatchItem } from "drizzle-orm/batch";
import { platformAudit } from "../../core/audit";
import type { PlatformCtx, TenantCtx } from "../../core/context";
import { abortBatchUnless, isBatchAborted, isUniqueViolation } from "../../core/db/errors";
import { keysetPage } from "../../core/db/paging";
import { rowById } from "../../core/db/rows";
import { Conflict, NotFound } from "../../core/errors";
import { requireUser } from "../../core/http/access";
import { newId } from "../../core/ids";
import { tenantRowById } from "../../core/tenancy/contexts";
import { addDays, DAY_MS, nowIso } from "../../core/time";
import { createPaymentOrder } from "../../platform/payments";
import { userContact } from "../identity/service";
import { notifyInvoice } from "./notifications";
import { billingInvoices } from "./platform-tables";
import type { InvoiceListQuery, IssueInvoiceInput, OperatorInvoiceInput, VoidInvoiceInput } from "./schemas";
import {
  actorLabel,
  appendHistory,
  BILLING_KIND,
  ensureSubscription,
  type InvoiceRow,
  jakartaYearMonth,
  loadPlan,
  MAX_DUE_DAYS,
  MIN_DUE_DAYS,
  type PlanRow,
  presentInvoice,
  presentSubscription,
  tenantInvoice,
} from "./subscriptions";

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
  const now = ctx.now();
  const values = numberedInvoice(ctx, input, id, payment, now);
  const replaced: BatchItem<"sqlite">[] = input.replaceOpen ? [voidOpenInvoices(ctx, input, id, now)] : [];
  await insertNumbered(ctx, input, values, replaced);
  const row = (await rowById(ctx.platform, billingInvoices, id)) as InvoiceRow;
  await notifyInvoice(ctx, "issued", row, input.tenant, { planName: input.plan.name });
  return row;
}

/** The new invoice's row, numbered `INV/<year>/<month>/<seq>` inside its own INSERT. */
function numberedInvoice(
  ctx: PlatformCtx,
  input: NewInvoice,
  id: string,
  payment: { orderId: string; paymentUrl: string | null },
  now: Date,
) {
  const { year, month } = jakartaYearMonth(now);
  const by = actorLabel(ctx);
  const next = sql`(SELECT COALESCE(MAX(${billingInvoices.seq}), 0) + 1 FROM ${billingInvoices} WHERE ${billingInvoices.year} = ${year})`;
  return {
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
}

/** An admin's new invoice voids their open one, in the same batch. */
function voidOpenInvoices(ctx: PlatformCtx, input: NewInvoice, id: string, now: Date) {
  const by = actorLabel(ctx);
  return ctx.platform
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
    );
}

/** Inserts the invoice with its audit record; a number taken by a concurrent issue is tried again. */
async function insertNumbered(
  ctx: PlatformCtx,
  input: NewInvoice,
  values: ReturnType<typeof numberedInvoice>,
  replaced: BatchItem<"sqlite">[],
) {
  for (let attempt = 0; ; attempt++) {
    try {
      await ctx.platform.batch([
        ctx.platform.insert(billingInvoices).values(values),
        ...replaced,
        platformAudit(ctx, {
          action: "billing.invoice_issued",
          targetType: "billing_invoice",
          targetId: values.id,
          tenantId: input.tenant.id,
          detail: {
            plan: input.plan.code,
            months: input.months,
            amount: input.amount,
            orderId: values.orderId,
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
}

/** `POST /api/billing/invoices`: the admin renews (or changes plan) for `months`, at the plan's price. */
export async function issueInvoice({ ctx, input }: { ctx: TenantCtx; input: IssueInvoiceInput }) {
  const plan = await loadPlan(ctx, input.plan);
  const sub = await ensureSubscription(ctx, ctx.tenant.id);
  const now = ctx.now().getTime();
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
    dueAt: addDays(ctx.now(), input.dueInDays ?? MIN_DUE_DAYS),
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
    subscription: presentSubscription(sub, ctx.now()),
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
  const now = nowIso(ctx);
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
