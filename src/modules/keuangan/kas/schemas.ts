import { z } from "zod";
import { ListQuery } from "../../../core/db/paging";
import { Paragraph } from "../../../core/schemas";
import { Day } from "../periods";
import { Category, FileId, Rupiah } from "../schemas-shared";

// --- cash book ---------------------------------------------------------------------------------

export const CashEntryInput = z.object({
  kind: z.enum(["masuk", "keluar"]),
  category: Category,
  amount: Rupiah,
  date: Day.describe("Not in the future, Asia/Jakarta (400 `invalid_date` otherwise)"),
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

// --- expenses ----------------------------------------------------------------------------------

export const ExpenseInput = z.object({
  category: Category,
  amount: Rupiah,
  date: Day.describe("Not in the future, Asia/Jakarta (400 `invalid_date` otherwise)"),
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
