import { sql } from "drizzle-orm";
import { check, index, integer, primaryKey, sqliteTable, text, uniqueIndex } from "drizzle-orm/sqlite-core";
import { rowVersion } from "../../core/db/row-version";

const createdAt = () => text("created_at").notNull().default(sql`(strftime('%Y-%m-%dT%H:%M:%fZ','now'))`);

/** An amount of a dues type valid from a period on: a change applies from the next period. */
export interface DuesRate {
  from: string;
  amount: number;
}

/** A kind of dues (iuran): billed per housing unit or per family card (KK), every month. */
export const duesTypes = sqliteTable("dues_types", {
  id: text("id").primaryKey(),
  /** ETag and If-Match (ADR 0035); moved by a trigger, never set here. */
  rowVersion: rowVersion(),
  name: text("name").notNull(),
  basis: text("basis", { enum: ["unit", "kk"] }).notNull(),
  startPeriod: text("start_period").notNull(),
  active: integer("active", { mode: "boolean" }).notNull(),
  /** Every amount the type has had, oldest first; a bill takes the one in force for its period. */
  rates: text("rates", { mode: "json" }).$type<DuesRate[]>().notNull(),
  exemptUnitIds: text("exempt_unit_ids", { mode: "json" }).$type<string[]>().notNull(),
  /**
   * The day of the month a period's bill is due (Asia/Jakarta; a day past the month's end is its last
   * day). Until that day has passed the bill is "bulan ini", after it tunggakan (issue 45).
   */
  dueDay: integer("due_day").notNull().default(10),
  createdAt: createdAt(),
  updatedAt: text("updated_at").notNull(),
});

/**
 * One bill of one dues type for one period and one target (the unit, or the KK). The unique key on
 * (type, period, target) is what makes generation idempotent: a second run inserts nothing.
 * `paidAmount` moves only by conditional UPDATE inside the batch that records the payment.
 */
export const duesBills = sqliteTable(
  "dues_bills",
  {
    id: text("id").primaryKey(),
    typeId: text("type_id").notNull(),
    typeName: text("type_name").notNull(),
    period: text("period").notNull(),
    basis: text("basis", { enum: ["unit", "kk"] }).notNull(),
    /** The unit, or the family card, the bill is for. */
    targetId: text("target_id").notNull(),
    unitId: text("unit_id").notNull(),
    familyId: text("family_id"),
    /**
     * The family card this open bill was settled to when that family moved out and left the unit empty
     * (issue 45): the family's debt from then on, shown to the treasurer apart, never to the unit's next
     * occupant, and left out of the unit's kept balances.
     */
    movedOutFamilyId: text("moved_out_family_id"),
    amount: integer("amount").notNull(),
    paidAmount: integer("paid_amount").notNull().default(0),
    status: text("status", { enum: ["belum", "sebagian", "lunas"] }).notNull(),
    /** The payment that last moved `paidAmount`: the guard of the payment batch checks it is its own. */
    lastPaymentId: text("last_payment_id"),
    createdAt: createdAt(),
    updatedAt: text("updated_at").notNull(),
  },
  (t) => [
    uniqueIndex("dues_bills_type_period_target_uq").on(t.typeId, t.period, t.targetId),
    // Holds the amounts: the monthly report sums a period's bills on the index alone.
    index("dues_bills_period_idx").on(t.period, t.id, t.amount, t.paidAmount),
    index("dues_bills_unit_idx").on(t.unitId, t.period),
    // In id order: the staff list filtered by status walks it to the page's end instead of sorting.
    index("dues_bills_status_idx").on(t.status, t.id),
    // The debts of families that moved out (few bills of many): their list reads these alone, grouped
    // by card in index order, and never walks the community's other bills.
    index("dues_bills_moved_out_idx")
      .on(t.movedOutFamilyId, t.status)
      .where(sql`${t.movedOutFamilyId} IS NOT NULL`),
    check("dues_bills_paid_le_amount", sql`${t.paidAmount} >= 0 AND ${t.paidAmount} <= ${t.amount}`),
  ],
);

/**
 * What is still owed, kept per unit, billing target (the unit, or the KK for dues billed per KK) and period,
 * with a row only while something of that target and period is unpaid (ADR 0028). Every write of bills
 * or their payments (generation, a payment, a gateway settlement, a reversal) rewrites the rows of the
 * slots it touched in its own batch, from those slots' bills (`balanceRefresh`, iuran/balances.ts), so
 * arrears, aging and the dashboard read the open slots instead of every bill ever issued.
 */
export const duesBalances = sqliteTable(
  "dues_balances",
  {
    targetId: text("target_id").notNull(),
    period: text("period").notNull(),
    basis: text("basis", { enum: ["unit", "kk"] }).notNull(),
    unitId: text("unit_id").notNull(),
    familyId: text("family_id"),
    /** Rupiah still owed on the slot's bills (amount minus paid, over bills not paid in full). */
    outstanding: integer("outstanding").notNull(),
    /** Bills of the slot not paid in full. */
    openBills: integer("open_bills").notNull(),
  },
  (t) => [
    // The unit first: a KK that moved keeps its old bills at the old unit, so the unit is part of the slot.
    primaryKey({ columns: [t.unitId, t.period, t.targetId] }),
    // Holds what arrears, the dashboard and the report sum, so they read the index alone.
    index("dues_balances_period_idx").on(t.period, t.unitId, t.outstanding),
  ],
);

/**
 * What each unit still owes over all its open slots, one row per unit with a `dues_balances` row, kept in
 * the same batches as those rows from them (iuran/balances.ts; ADR 0028, update of issue 32), so the
 * arrears list reads a page in owed order on `dues_unit_balances_owed_idx` instead of grouping every slot.
 * `newestPeriod` says whether a unit owes on a period billed ahead (not yet owed as of today).
 */
export const duesUnitBalances = sqliteTable(
  "dues_unit_balances",
  {
    unitId: text("unit_id").primaryKey(),
    /** Rupiah still owed over every open slot of the unit. */
    owed: integer("owed").notNull(),
    openBills: integer("open_bills").notNull(),
    oldestPeriod: text("oldest_period").notNull(),
    newestPeriod: text("newest_period").notNull(),
  },
  (t) => [index("dues_unit_balances_owed_idx").on(t.owed, t.unitId)],
);

/**
 * A payment against a bill; an online payment carries its gateway order id, unique, so it lands once.
 * A payment recorded by mistake is reversed, never deleted: the `reversal_*` columns say who, when and
 * why, and `reversal_entry_id` is the cash entry that undid the payment's own (its `reverses_id` is
 * unique, which is what lets a payment be reversed once).
 */
export const duesPayments = sqliteTable(
  "dues_payments",
  {
    id: text("id").primaryKey(),
    billId: text("bill_id").notNull(),
    amount: integer("amount").notNull(),
    method: text("method", { enum: ["tunai", "transfer", "online"] }).notNull(),
    paidAt: text("paid_at").notNull(),
    gatewayOrderId: text("gateway_order_id"),
    /** An uploaded proof of payment (tenant file store, purpose `bukti_bayar`). */
    proofFileId: text("proof_file_id"),
    cashEntryId: text("cash_entry_id").notNull(),
    recordedBy: text("recorded_by"),
    reversedAt: text("reversed_at"),
    reversedBy: text("reversed_by"),
    reversalReason: text("reversal_reason"),
    reversalEntryId: text("reversal_entry_id"),
    createdAt: createdAt(),
  },
  (t) => [
    index("dues_payments_bill_idx").on(t.billId),
    index("dues_payments_paid_at_idx").on(t.paidAt, t.amount),
    index("dues_payments_reversed_at_idx").on(t.reversedAt),
    // One payment per bill of a gateway order: an order may cover several bills of a household (issue 45).
    uniqueIndex("dues_payments_order_bill_uq").on(t.gatewayOrderId, t.billId),
  ],
);

/**
 * The cash book (buku kas): the one place money moves. Rows are never updated or deleted; a
 * correction is a new row of the opposite kind pointing at the original (`reversesId`, unique, so an
 * entry is corrected at most once). No balance column to drift: balances are sums of rows, read through
 * the month totals kept beside them (`cash_months`).
 */
export const cashEntries = sqliteTable(
  "cash_entries",
  {
    id: text("id").primaryKey(),
    kind: text("kind", { enum: ["masuk", "keluar"] }).notNull(),
    category: text("category").notNull(),
    amount: integer("amount").notNull(),
    /** The Jakarta calendar day the money moved (YYYY-MM-DD). */
    date: text("date").notNull(),
    note: text("note").notNull(),
    source: text("source", { enum: ["manual", "iuran", "donasi", "pengeluaran", "koreksi"] }).notNull(),
    sourceId: text("source_id"),
    reversesId: text("reverses_id"),
    /** A scan behind a manual entry (tenant file store, purpose `lampiran_kas`). */
    attachmentFileId: text("attachment_file_id"),
    createdBy: text("created_by"),
    createdAt: createdAt(),
  },
  (t) => [
    // Both cover a balance's sum (kind, amount) over the days of one month without reading the rows.
    index("cash_entries_date_idx").on(t.date, t.id, t.kind, t.amount),
    index("cash_entries_category_date_idx").on(t.category, t.date, t.kind, t.amount),
    uniqueIndex("cash_entries_reverses_uq").on(t.reversesId),
    check("cash_entries_amount_positive", sql`${t.amount} > 0`),
  ],
);

/**
 * The cash book's totals per Jakarta month and category (ADR 0028): what the month's entries of the
 * category brought in and paid out. Every batch that books an entry rewrites its month's row from the
 * month's entries (`refreshCashMonth`, kas/bulanan.ts), so balances, the monthly report and the budget
 * read a few rows per month instead of every entry ever booked.
 */
export const cashMonths = sqliteTable(
  "cash_months",
  {
    /** `YYYY-MM`. */
    month: text("month").notNull(),
    category: text("category").notNull(),
    /** Sum of the month's `masuk` entries of the category. */
    income: integer("income").notNull(),
    /** Sum of the month's `keluar` entries of the category. */
    expense: integer("expense").notNull(),
    entries: integer("entries").notNull(),
  },
  (t) => [primaryKey({ columns: [t.month, t.category] })],
);

/** The budget (anggaran) of a year, one line per category. */
export const budgetLines = sqliteTable(
  "budget_lines",
  {
    id: text("id").primaryKey(),
    year: integer("year").notNull(),
    category: text("category").notNull(),
    amount: integer("amount").notNull(),
    createdAt: createdAt(),
  },
  (t) => [uniqueIndex("budget_lines_year_category_uq").on(t.year, t.category)],
);

/**
 * A year's budget as one resource for `ETag` and `If-Match` (ADR 0035): the lines have no one row to
 * version, so the year has one, written in the very batch that rewrites its lines (anggaran/budget.ts). A year
 * with no row yet (no budget saved through the API) is version 0.
 */
export const budgetYears = sqliteTable("budget_years", {
  year: integer("year").primaryKey(),
  /** Moved by a trigger on every update, never set here. */
  rowVersion: rowVersion(),
  updatedAt: text("updated_at").notNull(),
});

/** An expense (pengeluaran): one finance officer submits, another decides (ADR 0028); posted on approval. */
export const expenses = sqliteTable(
  "expenses",
  {
    id: text("id").primaryKey(),
    category: text("category").notNull(),
    amount: integer("amount").notNull(),
    date: text("date").notNull(),
    description: text("description").notNull(),
    status: text("status", { enum: ["diajukan", "disetujui", "ditolak"] }).notNull(),
    reason: text("reason"),
    /** The receipt (tenant file store, purpose `nota`). */
    receiptFileId: text("receipt_file_id"),
    submittedBy: text("submitted_by").notNull(),
    /** The submitter held the head's duty (admin) when submitting: another officer, not only the head, decides. */
    submittedByHead: integer("submitted_by_head", { mode: "boolean" }).notNull().default(false),
    decidedBy: text("decided_by"),
    decidedAt: text("decided_at"),
    cashEntryId: text("cash_entry_id"),
    createdAt: createdAt(),
    updatedAt: text("updated_at").notNull(),
  },
  (t) => [
    index("expenses_status_idx").on(t.status, t.id),
    // The month's self-approved total of one submitter (the cumulative threshold, ADR 0028).
    index("expenses_submitter_idx").on(t.submittedBy, t.decidedAt),
  ],
);

/** A fundraising campaign (kampanye); its progress is computed from confirmed donations. */
export const campaigns = sqliteTable(
  "campaigns",
  {
    id: text("id").primaryKey(),
    /** ETag and If-Match (ADR 0035); moved by a trigger, never set here. */
    rowVersion: rowVersion(),
    title: text("title").notNull(),
    description: text("description").notNull(),
    target: integer("target").notNull(),
    deadline: text("deadline").notNull(),
    status: text("status", { enum: ["aktif", "selesai", "dibatalkan"] }).notNull(),
    /** The cover image (tenant file store, purpose `sampul`). */
    coverFileId: text("cover_file_id"),
    createdBy: text("created_by").notNull(),
    createdAt: createdAt(),
    updatedAt: text("updated_at").notNull(),
  },
  (t) => [index("campaigns_status_idx").on(t.status, t.id)],
);

/**
 * A donation: pledged by a resident (`dijanjikan`) until the treasurer confirms the money arrived, or
 * recorded by the treasurer as cash in hand (confirmed at once). Confirmation posts to the cash book.
 */
export const donations = sqliteTable(
  "donations",
  {
    id: text("id").primaryKey(),
    campaignId: text("campaign_id").notNull(),
    donorId: text("donor_id"),
    donorName: text("donor_name"),
    anonymous: integer("anonymous", { mode: "boolean" }).notNull(),
    amount: integer("amount").notNull(),
    note: text("note"),
    status: text("status", { enum: ["dijanjikan", "dikonfirmasi", "ditolak"] }).notNull(),
    recordedBy: text("recorded_by").notNull(),
    decidedBy: text("decided_by"),
    decidedAt: text("decided_at"),
    cashEntryId: text("cash_entry_id"),
    createdAt: createdAt(),
    updatedAt: text("updated_at").notNull(),
  },
  (t) => [index("donations_campaign_idx").on(t.campaignId, t.status)],
);

/**
 * Dues reminders per unit: the last time one was asked for (at most one per unit per 3 days, decided by
 * a conditional upsert) and, while the quiet hours hold it, when it may go out.
 */
export const duesReminders = sqliteTable(
  "dues_reminders",
  {
    unitId: text("unit_id").primaryKey(),
    requestedAt: text("requested_at").notNull(),
    sendAfter: text("send_after").notNull(),
    sentAt: text("sent_at"),
  },
  (t) => [index("dues_reminders_pending_idx").on(t.sentAt, t.sendAfter)],
);

/** The community's finance settings: one row (id 1), defaults until the admin saves them. */
export const financeSettings = sqliteTable("finance_settings", {
  id: integer("id").primaryKey(),
  /** ETag and If-Match (ADR 0035); moved by a trigger, never set here. */
  rowVersion: rowVersion(),
  transparansi: integer("transparansi", { mode: "boolean" }).notNull(),
  expenseApprovalThreshold: integer("expense_approval_threshold").notNull(),
  /** Whether units marked `kosong` are billed dues per unit (some RTs bill the owners of empty houses). */
  billEmptyUnits: integer("bill_empty_units", { mode: "boolean" }).notNull().default(false),
  updatedAt: text("updated_at").notNull(),
  updatedBy: text("updated_by"),
});
