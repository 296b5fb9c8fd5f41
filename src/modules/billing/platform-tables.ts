import { sql } from "drizzle-orm";
import { check, index, integer, sqliteTable, text, uniqueIndex } from "drizzle-orm/sqlite-core";
import { SUBSCRIPTION_STATUSES } from "../../core/db/platform-schema";

/**
 * Subscription billing is between the platform and each community, so it lives in the platform
 * database: the operator lists invoices across tenants, the payment callback (which knows only an
 * order id) finds the invoice, and the daily job walks every subscription in one query.
 */
export const billingPlans = sqliteTable(
  "billing_plans",
  {
    code: text("code").primaryKey(),
    name: text("name").notNull(),
    /** Integer rupiah per month. */
    pricePerMonth: integer("price_per_month").notNull(),
    /** Null: no limit. */
    maxResidents: integer("max_residents"),
    description: text("description").notNull().default(""),
    active: integer("active", { mode: "boolean" }).notNull().default(true),
    createdAt: text("created_at").notNull().default(sql`(strftime('%Y-%m-%dT%H:%M:%fZ','now'))`),
    updatedAt: text("updated_at").notNull(),
  },
  (t) => [check("billing_plans_price_ck", sql`${t.pricePerMonth} > 0`)],
);

export const billingSubscriptions = sqliteTable("billing_subscriptions", {
  tenantId: text("tenant_id").primaryKey(),
  planCode: text("plan_code").notNull(),
  /** Mirrored into `tenants.subscription_status`, which the guard reads (402 when `nonaktif`). */
  status: text("status", { enum: SUBSCRIPTION_STATUSES }).notNull(),
  /** Paid (or trial) service runs until this instant; `tenggang` for 14 days after, then `nonaktif`. */
  activeUntil: text("active_until").notNull(),
  createdAt: text("created_at").notNull().default(sql`(strftime('%Y-%m-%dT%H:%M:%fZ','now'))`),
  updatedAt: text("updated_at").notNull(),
});

export interface InvoiceHistoryEntry {
  status: string;
  at: string;
  by: string;
  note?: string;
}

export const INVOICE_STATUSES = ["issued", "paid", "expired", "void"] as const;

export const billingInvoices = sqliteTable(
  "billing_invoices",
  {
    id: text("id").primaryKey(),
    /** `INV/2026/11/0001`: the yearly sequence, with the month of issue for the reader. */
    number: text("number").notNull(),
    year: integer("year").notNull(),
    seq: integer("seq").notNull(),
    tenantId: text("tenant_id").notNull(),
    planCode: text("plan_code").notNull(),
    months: integer("months").notNull(),
    amount: integer("amount").notNull(),
    note: text("note"),
    dueAt: text("due_at").notNull(),
    status: text("status", { enum: INVOICE_STATUSES }).notNull(),
    orderId: text("order_id"),
    paymentUrl: text("payment_url"),
    paymentReference: text("payment_reference"),
    paidAt: text("paid_at"),
    /** Set when the 7-day and 1-day reminders went out, so a repeated daily run sends nothing new. */
    remindedAt7: text("reminded_at_7"),
    remindedAt1: text("reminded_at_1"),
    history: text("history", { mode: "json" }).$type<InvoiceHistoryEntry[]>().notNull(),
    issuedBy: text("issued_by"),
    /**
     * Set when an operator voids the invoice (not when an admin's new invoice replaces it): such an
     * invoice must not be paid, so a late payment of it is recorded for a refund and changes nothing.
     */
    voidedAt: text("voided_at"),
    voidedBy: text("voided_by"),
    voidReason: text("void_reason"),
    /** Random per state change: a batch's guard checks that its own change is the one that landed. */
    writeId: text("write_id").notNull(),
    createdAt: text("created_at").notNull().default(sql`(strftime('%Y-%m-%dT%H:%M:%fZ','now'))`),
    updatedAt: text("updated_at").notNull(),
  },
  (t) => [
    // Numbers are gapless per year: the next is MAX+1 inside the INSERT, and this refuses a duplicate.
    uniqueIndex("billing_invoices_year_seq_uq").on(t.year, t.seq),
    uniqueIndex("billing_invoices_number_uq").on(t.number),
    uniqueIndex("billing_invoices_order_uq").on(t.orderId),
    index("billing_invoices_tenant_idx").on(t.tenantId, t.id),
    index("billing_invoices_status_due_idx").on(t.status, t.dueAt),
    check("billing_invoices_amount_ck", sql`${t.amount} > 0`),
    check("billing_invoices_months_ck", sql`${t.months} BETWEEN 1 AND 36`),
  ],
);
