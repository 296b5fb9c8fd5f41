import { z } from "zod";
import { ListQuery } from "../../../core/db/paging";
import { Line, Paragraph, Slug } from "../../../core/schemas";
import { Period } from "../periods";
import { FileId, Rupiah } from "../schemas-shared";

// --- dues types --------------------------------------------------------------------------------

export const DuesTypeInput = z.object({
  name: Line(120, 2),
  amount: Rupiah,
  basis: z.enum(["unit", "kk"]),
  startPeriod: Period,
  active: z.boolean().default(true),
  exemptUnitIds: z.array(z.string().min(1).max(64)).max(500).optional(),
  dueDay: z
    .number()
    .int()
    .min(1)
    .max(31)
    .optional()
    .describe(
      "The day of the month a period's bill is due (Asia/Jakarta; past the month's end, its last day). " +
        "Until then the bill is 'bulan ini', after it tunggakan. 10 when a type is created without it; " +
        "kept when an update leaves it out",
    ),
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
    dueDay: z.number().int().describe("The day of the month a period's bill is due"),
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

export const PreviewQuery = z.object({ period: Period });
export const GenerationPreview = z
  .object({
    period: z.string(),
    bills: z.number().int().describe("Bills a generation of the period would issue now"),
    existing: z.number().int().describe("Bills of the period already issued (a generation skips them)"),
    total: z.number().int().describe("The amount of the bills it would issue, in rupiah"),
    types: z
      .array(
        z.object({
          typeId: z.string(),
          name: z.string(),
          basis: z.enum(["unit", "kk"]),
          amount: z.number().int().describe("The type's amount in force in the period"),
          bills: z.number().int(),
          existing: z.number().int(),
          total: z.number().int(),
        }),
      )
      .describe("Each active dues type in force in the period"),
  })
  .openapi("DuesGenerationPreview");

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
    movedOutFamilyId: z
      .string()
      .nullable()
      .describe(
        "The family card this bill was settled to when that family moved out: its debt, not the unit's",
      ),
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
  paidAt: z.iso.datetime({ offset: true }).describe("Not in the future (400 `invalid_date` otherwise)"),
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

/** A payment of the caller's own household: what a receipt shows. */
export const OwnPayment = z
  .object({
    id: z.string(),
    amount: z.number().int(),
    method: z.enum(["tunai", "transfer", "online"]),
    paidAt: z.string(),
    orderId: z.string().nullable().describe("The gateway order it came from (`iuran-…`), for an online one"),
    reversed: z.boolean().describe("Reversed by the treasurer: it no longer counts"),
  })
  .openapi("DuesOwnPayment");

export const MyDues = z
  .object({
    unitId: z.string(),
    items: z.array(
      Bill.extend({
        payments: z.array(OwnPayment),
        dueDate: z.string().describe("The day (Asia/Jakarta) the bill is due, from its dues type"),
        overdue: z.boolean().describe("Open and past its due date: tunggakan (else 'bulan ini')"),
      }),
    ),
    totals: z.object({
      billed: z.number().int(),
      paid: z.number().int(),
      outstanding: z.number().int(),
      unpaidBills: z.number().int(),
      overdue: z.number().int().describe("Outstanding on bills past their due date (tunggakan)"),
      notYetDue: z.number().int().describe("Outstanding on bills not yet due (bulan ini)"),
    }),
  })
  .openapi("MyDues");

const Aging = z.object({
  d0_30: z.number().int(),
  d31_60: z.number().int(),
  d61_90: z.number().int(),
  d90plus: z.number().int(),
});

/**
 * The arrears list's query: a page of `limit` units (default 20, at most 100), after `cursor`, the
 * `nextCursor` of the page before (the last unit's owed and id, `250000~01J…`).
 */
export const ArrearsQuery = ListQuery;
export type ArrearsQuery = z.infer<typeof ArrearsQuery>;

export const Arrears = z
  .object({
    asOf: z.string().describe("The instant the arrears and their aging are computed at"),
    items: z
      .array(
        z.object({
          unitId: z.string(),
          block: z.string().nullable(),
          number: z.string().nullable(),
          headName: z
            .string()
            .nullable()
            .describe("The kepala keluarga of the active family card at the unit (registry); null if none"),
          waLink: z
            .string()
            .nullable()
            .describe(
              "A wa.me link with a prefilled Indonesian reminder of the amount, to the unit's number; " +
                "for the treasurer and admin only (null for other staff, and when the unit has no number)",
            ),
          owed: z.number().int(),
          unpaidBills: z.number().int(),
          oldestPeriod: z.string(),
          aging: Aging,
        }),
      )
      .describe("One page of the units in arrears: owed descending, then unit id"),
    totals: z
      .object({ owed: z.number().int(), units: z.number().int(), aging: Aging })
      .describe("Over every unit in arrears, whatever the page"),
    bulanIni: z
      .object({
        period: z.string(),
        dueDate: z.string().describe("The day (Asia/Jakarta) the month's bills are due"),
        overdue: z.boolean().describe("The due date has passed: the month also counts in the arrears"),
        outstanding: z.number().int().describe("Still open on the current month's bills"),
        units: z.number().int(),
      })
      .describe("The current month, apart: its bills are tunggakan only after the due date"),
    nextCursor: z.string().nullable().describe("The `cursor` of the next page; null on the last"),
  })
  .openapi("DuesArrears");

export const MovedOutDebts = z
  .object({
    items: z
      .array(
        z.object({
          familyId: z.string().describe("The family card (KK) that moved out"),
          label: z.literal("pindah").describe("A moved-out family's debt, not a unit's arrears"),
          headName: z.string().nullable(),
          leftOn: z.string().nullable().describe("The day (YYYY-MM-DD) the family moved out"),
          unitId: z.string().describe("The house the family left"),
          block: z.string().nullable(),
          number: z.string().nullable(),
          owed: z.number().int(),
          unpaidBills: z.number().int(),
          oldestPeriod: z.string(),
        }),
      )
      .describe("One page of the families, by card id"),
    nextCursor: z.string().nullable(),
  })
  .openapi("DuesMovedOutDebts");

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

export const OnlinePayment = z
  .object({
    orderId: z.string(),
    paymentUrl: z.string().describe("Where the resident pays (the gateway's checkout page)"),
    amount: z.number().int(),
    expiresAt: z.string(),
  })
  .openapi("DuesOnlinePayment");

export const MultiPayInput = z.object({
  billIds: z
    .array(z.string().min(1).max(64))
    .min(1)
    .max(24)
    .describe("Open bills of the caller's household, paid together in one checkout (one gateway fee)"),
});
export type MultiPayInput = z.infer<typeof MultiPayInput>;

export const MultiOnlinePayment = OnlinePayment.extend({
  items: z
    .array(z.object({ billId: z.string(), amount: z.number().int() }))
    .describe("The bills the order pays, oldest period first, each with what it still owed"),
}).openapi("DuesMultiOnlinePayment");

// --- a moved-out family's debt, seen and paid by its members in their grace period (issue 45) -------

export const GraceDebtBill = z.object({
  id: z.string(),
  period: z.string(),
  typeName: z.string(),
  amount: z.number().int(),
  paidAmount: z.number().int(),
  outstanding: z.number().int(),
});

export const GraceDebts = z
  .object({
    items: z
      .array(
        z.object({
          tenant: z.object({ slug: z.string(), name: z.string(), type: z.enum(["RT", "RW"]) }),
          graceUntil: z
            .string()
            .describe("Until when the person can still see and pay this (30 days after leaving)"),
          familyId: z.string().describe("The family card the debt was settled to"),
          headName: z.string().nullable(),
          owed: z.number().int().describe("What the family still owes there, in rupiah"),
          bills: z.array(GraceDebtBill).describe("Its open bills, oldest period first"),
        }),
      )
      .describe("One entry per community the caller moved out of and is still in the grace period of"),
  })
  .openapi("GraceDebts");
export type GraceDebts = z.infer<typeof GraceDebts>;

export const GraceDebtPayInput = MultiPayInput.extend({
  tenant: Slug.optional().describe(
    "The community the debt is in; needed only when the caller is in the grace period of more than one",
  ),
  billIds: z
    .array(z.string().min(1).max(64))
    .min(1)
    .max(24)
    .describe("Open bills settled to the caller's moved-out family, paid together in one checkout"),
});
export type GraceDebtPayInput = z.infer<typeof GraceDebtPayInput>;
