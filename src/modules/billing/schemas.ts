import { z } from "zod";
import { ListQuery } from "../../core/db/paging";
import { SUBSCRIPTION_STATUSES } from "../../core/db/platform-schema";
import { Line, Paragraph } from "../../core/schemas";
import { INVOICE_STATUSES } from "./platform-tables";

const PlanCode = z
  .string()
  .regex(/^[a-z][a-z0-9-]{1,29}$/, "lowercase letters, digits and dashes, 2-30 characters");
const Months = z.number().int().min(1).max(36);

export const IssueInvoiceInput = z.object({
  plan: PlanCode,
  months: Months,
});
export type IssueInvoiceInput = z.infer<typeof IssueInvoiceInput>;

export const OperatorInvoiceInput = z.object({
  plan: PlanCode,
  months: Months,
  /** Any amount the operator agreed (a discount, a custom deal); the plan's price × months otherwise. */
  amount: z.number().int().min(1).max(1_000_000_000).optional(),
  note: Paragraph(1000).optional(),
  /** Days the community has to pay, 1–60 (7 unless given). */
  dueInDays: z.number().int().min(1).max(60).optional(),
});
export type OperatorInvoiceInput = z.infer<typeof OperatorInvoiceInput>;

export const InvoiceParams = z.object({
  id: z.string().min(1).max(64),
  invoiceId: z.string().min(1).max(64),
});

export const VoidInvoiceInput = z.object({
  reason: Paragraph(500, 3).describe("Why the invoice is voided; the community's admin sees it"),
});
export type VoidInvoiceInput = z.infer<typeof VoidInvoiceInput>;

export const InvoiceListQuery = ListQuery.extend({
  status: z.enum(INVOICE_STATUSES).optional(),
});
export type InvoiceListQuery = z.infer<typeof InvoiceListQuery>;

export const Invoice = z
  .object({
    id: z.string(),
    number: z.string(),
    tenantId: z.string(),
    plan: z.string(),
    months: z.number().int(),
    amount: z.number().int(),
    note: z.string().nullable(),
    dueAt: z.string(),
    status: z.enum(INVOICE_STATUSES),
    orderId: z.string().nullable(),
    /** Only while the invoice can be paid. */
    paymentUrl: z.string().nullable(),
    paymentReference: z.string().nullable(),
    paidAt: z.string().nullable(),
    /** Set when an operator voided the invoice; it can no longer be paid. */
    voidedAt: z.string().nullable(),
    voidReason: z.string().nullable(),
    history: z.array(
      z.object({ status: z.string(), at: z.string(), by: z.string(), note: z.string().optional() }),
    ),
    createdAt: z.string(),
  })
  .openapi("BillingInvoice");
export type Invoice = z.infer<typeof Invoice>;

export const Subscription = z
  .object({
    tenantId: z.string(),
    plan: z.string(),
    status: z.enum(SUBSCRIPTION_STATUSES),
    activeUntil: z.string(),
    /** When the grace period ends and the community becomes read-only if still unpaid. */
    graceUntil: z.string(),
  })
  .openapi("BillingSubscription");

export const InvoiceList = z
  .object({ items: z.array(Invoice), nextCursor: z.string().nullable(), subscription: Subscription })
  .openapi("BillingInvoiceList");

export const Plan = z
  .object({
    code: z.string(),
    name: z.string(),
    pricePerMonth: z.number().int(),
    maxResidents: z.number().int().nullable(),
    description: z.string(),
    active: z.boolean(),
  })
  .openapi("BillingPlan");

export const CreatePlanInput = z.object({
  code: PlanCode,
  name: Line(60),
  pricePerMonth: z.number().int().min(1).max(100_000_000),
  maxResidents: z.number().int().min(1).nullable().optional(),
  description: Paragraph(500).optional(),
});
export type CreatePlanInput = z.infer<typeof CreatePlanInput>;

export const PaymentCallbackQuery = ListQuery.extend({ orderId: z.string().max(100).optional() });

export const PaymentCallback = z
  .object({
    id: z.string(),
    gateway: z.string(),
    orderId: z.string().nullable(),
    verified: z.boolean(),
    claimedStatus: z.string().nullable(),
    confirmedStatus: z.string().nullable(),
    outcome: z.string(),
    raw: z.string(),
    receivedAt: z.string(),
  })
  .openapi("PaymentCallbackRecord");

export const PlanList = z.object({ items: z.array(Plan) }).openapi("BillingPlanList");
