import { z } from "zod";
import { ListQuery } from "../../core/db/paging";
import { Line, Paragraph } from "../../core/schemas";
import { Day, Period } from "./periods";

/** Integer rupiah, positive, below a sanity ceiling (one trillion). */
const Rupiah = z.number().int().positive().max(1_000_000_000_000);
const Category = Line(60, 2);
const FileId = z.string().min(1).max(64);

// --- dues types --------------------------------------------------------------------------------

export const DuesTypeInput = z.object({
  name: Line(120, 2),
  amount: Rupiah,
  basis: z.enum(["unit", "kk"]),
  startPeriod: Period,
  active: z.boolean().default(true),
  exemptUnitIds: z.array(z.string().min(1).max(64)).max(500).optional(),
});
export type DuesTypeInput = z.infer<typeof DuesTypeInput>;

export const DuesType = z
  .object({
    id: z.string(),
    name: z.string(),
    amount: z.number().int().describe("The amount in force for the current period"),
    nextAmount: z.number().int().nullable().describe("A changed amount, from the next period on"),
    basis: z.enum(["unit", "kk"]),
    startPeriod: z.string(),
    active: z.boolean(),
    exemptUnitIds: z.array(z.string()),
    rates: z.array(z.object({ from: z.string(), amount: z.number().int() })),
    createdAt: z.string(),
    updatedAt: z.string(),
  })
  .openapi("DuesType");

// --- bills and payments ------------------------------------------------------------------------

export const GenerateInput = z.object({ period: Period });
export const GenerateResult = z
  .object({ period: z.string(), created: z.number().int(), existing: z.number().int() })
  .openapi("DuesGeneration");

export const BillStatus = z.enum(["belum", "sebagian", "lunas"]);
export const BillListQuery = ListQuery.extend({
  period: Period.optional(),
  status: BillStatus.optional(),
  unitId: z.string().min(1).max(64).optional(),
});
export type BillListQuery = z.infer<typeof BillListQuery>;

export const Bill = z
  .object({
    id: z.string(),
    typeId: z.string(),
    typeName: z.string(),
    period: z.string(),
    basis: z.enum(["unit", "kk"]),
    unitId: z.string(),
    familyId: z.string().nullable(),
    amount: z.number().int(),
    paidAmount: z.number().int(),
    outstanding: z.number().int(),
    status: BillStatus,
    createdAt: z.string(),
  })
  .openapi("DuesBill");

export const PaymentInput = z.object({
  amount: Rupiah,
  method: z.enum(["tunai", "transfer"]),
  paidAt: z.iso.datetime({ offset: true }),
  proofFileId: FileId.optional().describe(
    "An uploaded proof of payment (POST /api/files, purpose bukti_bayar)",
  ),
});
export type PaymentInput = z.infer<typeof PaymentInput>;

export const PaymentReversal = z
  .object({
    at: z.string(),
    by: z.string().nullable().describe("The user who reversed it"),
    reason: z.string(),
    cashEntryId: z.string().describe("The cash entry that undid the payment's own (source koreksi)"),
  })
  .openapi("DuesPaymentReversal");

export const BillPayment = z
  .object({
    id: z.string(),
    amount: z.number().int(),
    method: z.enum(["tunai", "transfer", "online"]),
    paidAt: z.string(),
    proofUrl: z.string().nullable(),
    cashEntryId: z.string(),
    reversal: PaymentReversal.nullable().describe("Set once the payment was reversed; it no longer counts"),
  })
  .openapi("DuesBillPayment");

export const Payment = BillPayment.extend({ billId: z.string(), bill: Bill }).openapi("DuesPayment");

/** The staff list: each bill with its payments, so a payment can be found and reversed. */
export const StaffBill = Bill.extend({ payments: z.array(BillPayment) }).openapi("DuesBillWithPayments");

export const ReversalInput = z.object({
  reason: Paragraph(500, 3).describe(
    "Why the payment is reversed (wrong bill, wrong amount, a bounced transfer)",
  ),
});
export type ReversalInput = z.infer<typeof ReversalInput>;

export const MyDues = z
  .object({
    unitId: z.string(),
    items: z.array(Bill),
    totals: z.object({
      billed: z.number().int(),
      paid: z.number().int(),
      outstanding: z.number().int(),
      unpaidBills: z.number().int(),
    }),
  })
  .openapi("MyDues");

const Aging = z.object({
  d0_30: z.number().int(),
  d31_60: z.number().int(),
  d61_90: z.number().int(),
  d90plus: z.number().int(),
});

export const Arrears = z
  .object({
    asOf: z.string(),
    items: z.array(
      z.object({
        unitId: z.string(),
        block: z.string().nullable(),
        number: z.string().nullable(),
        owed: z.number().int(),
        unpaidBills: z.number().int(),
        oldestPeriod: z.string(),
        aging: Aging,
      }),
    ),
    totals: z.object({ owed: z.number().int(), units: z.number().int(), aging: Aging }),
  })
  .openapi("DuesArrears");

export const ReminderInput = z.object({
  unitIds: z.array(z.string().min(1).max(64)).min(1).max(500).optional(),
});
export type ReminderInput = z.infer<typeof ReminderInput>;

export const ReminderResult = z
  .object({
    queued: z.number().int().describe("Units whose reminder was accepted (sent now, or held)"),
    sentNow: z.number().int(),
    heldUntil: z.string().nullable().describe("Quiet hours (21:00–07:00 WIB): when held reminders go out"),
    skipped: z.object({
      noArrears: z.number().int(),
      recentlyReminded: z.number().int().describe("Reminded less than 3 days ago"),
      noRecipient: z.number().int().describe("No resident account with WhatsApp or email at the unit"),
    }),
  })
  .openapi("DuesReminderResult");

// --- cash book ---------------------------------------------------------------------------------

export const CashEntryInput = z.object({
  kind: z.enum(["masuk", "keluar"]),
  category: Category,
  amount: Rupiah,
  date: Day,
  note: Paragraph(500, 2),
  attachmentFileId: FileId.optional().describe("An uploaded scan (POST /api/files, purpose lampiran_kas)"),
});
export type CashEntryInput = z.infer<typeof CashEntryInput>;

export const CorrectionInput = z.object({ reason: Paragraph(500, 3) });

export const CashEntry = z
  .object({
    id: z.string(),
    kind: z.enum(["masuk", "keluar"]),
    category: z.string(),
    amount: z.number().int(),
    date: z.string(),
    note: z.string(),
    source: z.enum(["manual", "iuran", "donasi", "pengeluaran", "koreksi"]),
    sourceId: z.string().nullable(),
    reversesId: z.string().nullable(),
    attachmentUrl: z.string().nullable(),
    createdAt: z.string(),
  })
  .openapi("CashEntry");

export const CashListQuery = ListQuery.extend({
  from: Day.optional(),
  to: Day.optional(),
  category: Category.optional(),
});
export type CashListQuery = z.infer<typeof CashListQuery>;

export const CashBook = z
  .object({
    openingBalance: z.number().int().describe("Balance before `from` (of the category, if filtered)"),
    closingBalance: z.number().int().describe("Balance at the end of `to`"),
    items: z.array(CashEntry.extend({ balance: z.number().int() })),
    nextCursor: z.string().nullable(),
  })
  .openapi("CashBook");

// --- budget and expenses -----------------------------------------------------------------------

export const BudgetQuery = z.object({ tahun: z.coerce.number().int().min(2000).max(2100) });
export const YearParam = z.object({ tahun: z.coerce.number().int().min(2000).max(2100) });
export const BudgetInput = z.object({
  lines: z
    .array(z.object({ category: Category, amount: Rupiah }))
    .max(100)
    .refine((lines) => new Set(lines.map((l) => l.category)).size === lines.length, "categories repeat"),
});
export type BudgetInput = z.infer<typeof BudgetInput>;

export const Budget = z
  .object({
    year: z.number().int(),
    lines: z.array(
      z.object({
        category: z.string(),
        amount: z.number().int(),
        realised: z.number().int().describe("Net spending of the year's cash-book entries of the category"),
        percentUsed: z.number(),
      }),
    ),
    totals: z.object({ amount: z.number().int(), realised: z.number().int(), percentUsed: z.number() }),
  })
  .openapi("Budget");

export const ExpenseInput = z.object({
  category: Category,
  amount: Rupiah,
  date: Day,
  description: Paragraph(1000, 3),
  receiptFileId: FileId.optional().describe("An uploaded receipt (POST /api/files, purpose nota)"),
});
export type ExpenseInput = z.infer<typeof ExpenseInput>;

export const ExpenseDecision = z.object({
  status: z.enum(["disetujui", "ditolak"]),
  reason: Paragraph(500, 0).optional(),
});
export type ExpenseDecision = z.infer<typeof ExpenseDecision>;

export const ExpenseListQuery = ListQuery.extend({
  status: z.enum(["diajukan", "disetujui", "ditolak"]).optional(),
});
export type ExpenseListQuery = z.infer<typeof ExpenseListQuery>;

export const Expense = z
  .object({
    id: z.string(),
    category: z.string(),
    amount: z.number().int(),
    date: z.string(),
    description: z.string(),
    status: z.enum(["diajukan", "disetujui", "ditolak"]),
    reason: z.string().nullable(),
    receiptUrl: z.string().nullable(),
    submittedBy: z.string(),
    decidedBy: z.string().nullable(),
    decidedAt: z.string().nullable(),
    cashEntryId: z.string().nullable(),
    createdAt: z.string(),
  })
  .openapi("Expense");

// --- campaigns and donations -------------------------------------------------------------------

export const CampaignInput = z.object({
  title: Line(150, 3),
  description: Paragraph(5000, 3),
  target: Rupiah,
  deadline: Day,
  coverFileId: FileId.optional().describe("An uploaded cover image (POST /api/files, purpose sampul)"),
});
export type CampaignInput = z.infer<typeof CampaignInput>;

export const CampaignUpdate = CampaignInput.partial().extend({
  status: z.enum(["aktif", "selesai", "dibatalkan"]).optional(),
});
export type CampaignUpdate = z.infer<typeof CampaignUpdate>;

export const CampaignListQuery = ListQuery.extend({
  status: z.enum(["aktif", "selesai", "dibatalkan"]).optional(),
});
export type CampaignListQuery = z.infer<typeof CampaignListQuery>;

const Progress = z.object({
  confirmed: z.number().int(),
  percent: z.number(),
  donors: z.number().int(),
});

export const Campaign = z
  .object({
    id: z.string(),
    title: z.string(),
    description: z.string(),
    target: z.number().int(),
    deadline: z.string(),
    status: z.enum(["aktif", "selesai", "dibatalkan"]),
    coverUrl: z.string().nullable(),
    progress: Progress,
    createdAt: z.string(),
    updatedAt: z.string(),
  })
  .openapi("Campaign");

export const Donation = z
  .object({
    id: z.string(),
    campaignId: z.string(),
    donorName: z.string().nullable().describe("Hidden (null) for anonymous donations, except to finance"),
    anonymous: z.boolean(),
    amount: z.number().int(),
    note: z.string().nullable(),
    status: z.enum(["dijanjikan", "dikonfirmasi", "ditolak"]),
    cashEntryId: z.string().nullable(),
    createdAt: z.string(),
  })
  .openapi("Donation");

export const CampaignDetail = Campaign.extend({ donations: z.array(Donation) }).openapi("CampaignDetail");

export const DonationInput = z.object({
  amount: Rupiah,
  anonymous: z.boolean().default(false),
  note: Paragraph(500, 0).optional(),
  donorName: Line(120, 2).optional().describe("A cash donation recorded by the treasurer: who gave it"),
});
export type DonationInput = z.infer<typeof DonationInput>;

export const DonationDecision = z.object({ status: z.enum(["dikonfirmasi", "ditolak"]) });
export const DonationParams = z.object({
  id: z.string().min(1).max(64),
  donationId: z.string().min(1).max(64),
});

// --- reports and settings ----------------------------------------------------------------------

export const ReportQuery = z.object({
  bulan: Period,
  format: z.enum(["json", "pdf", "xlsx"]).default("json"),
});
export const PublicReportQuery = z.object({
  bulan: Period.optional().describe("The month; the current Jakarta month when left out"),
});
export const SlugParam = z.object({ slug: z.string().min(3).max(48) });

const ByCategory = z.array(z.object({ category: z.string(), amount: z.number().int() }));
export const FinanceReport = z
  .object({
    tenantName: z.string(),
    month: z.string(),
    openingBalance: z.number().int(),
    income: z.object({ total: z.number().int(), byCategory: ByCategory }),
    expense: z.object({ total: z.number().int(), byCategory: ByCategory }),
    closingBalance: z.number().int(),
    dues: z.object({
      billed: z.number().int().describe("Bills issued for the month"),
      collected: z.number().int().describe("Paid so far on the month's bills"),
      percentCollected: z.number(),
      receivedInMonth: z.number().int().describe("Dues payments received during the month (any period)"),
      reversedInMonth: z
        .number()
        .int()
        .describe("Dues payments reversed during the month (any period), as the cash book has them"),
    }),
    arrearsTotal: z.number().int().describe("Unpaid on bills up to and including the month"),
    generatedAt: z.string(),
  })
  .openapi("FinanceReport");

export const FinanceSettingsInput = z.object({
  transparansi: z.boolean().optional(),
  expenseApprovalThreshold: z.number().int().min(0).max(1_000_000_000_000).optional(),
});
export type FinanceSettingsInput = z.infer<typeof FinanceSettingsInput>;
export const FinanceSettings = z
  .object({
    transparansi: z.boolean(),
    expenseApprovalThreshold: z.number().int(),
    updatedAt: z.string().nullable(),
  })
  .openapi("FinanceSettings");

export const OnlinePayment = z
  .object({
    orderId: z.string(),
    paymentUrl: z.string().describe("Where the resident pays (the gateway's checkout page)"),
    amount: z.number().int(),
    expiresAt: z.string(),
  })
  .openapi("DuesOnlinePayment");
