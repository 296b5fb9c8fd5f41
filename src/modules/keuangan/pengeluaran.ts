import { and, desc, eq, type SQL } from "drizzle-orm";
import { audit } from "../../core/audit";
import type { TenantCtx } from "../../core/context";
import { abortBatchUnless, isBatchAborted } from "../../core/db/errors";
import { afterCursor, keysetPage } from "../../core/db/paging";
import { rowByIdOrNotFound } from "../../core/db/rows";
import { Conflict, Invalid } from "../../core/errors";
import { requireUser } from "../../core/http/access";
import { newId } from "../../core/ids";
import { nowIso } from "../../core/time";
import { requireTenantFile, tenantFileUrl } from "../../core/uploads";
import { postCash, todayJakarta } from "./kas";
import type { ExpenseDecision, ExpenseInput, ExpenseListQuery } from "./schemas";
import { loadFinanceSettings } from "./settings";
import { expenses } from "./tables";

type ExpenseRow = typeof expenses.$inferSelect;

function present(ctx: TenantCtx, row: ExpenseRow) {
  return {
    id: row.id,
    category: row.category,
    amount: row.amount,
    date: row.date,
    description: row.description,
    status: row.status,
    reason: row.reason,
    receiptUrl: row.receiptFileId ? tenantFileUrl(ctx, row.receiptFileId) : null,
    submittedBy: row.submittedBy,
    decidedBy: row.decidedBy,
    decidedAt: row.decidedAt,
    cashEntryId: row.cashEntryId,
    createdAt: row.createdAt,
  };
}

async function load(ctx: TenantCtx, id: string): Promise<ExpenseRow> {
  return rowByIdOrNotFound(ctx.db, expenses, id, "Expense");
}

const posting = (row: Pick<ExpenseRow, "id" | "category" | "amount" | "date" | "description">) => ({
  kind: "keluar" as const,
  category: row.category,
  amount: row.amount,
  date: row.date,
  note: row.description,
  source: "pengeluaran" as const,
  sourceId: row.id,
});

/**
 * The treasurer submits an expense (`diajukan`). One under the tenant's threshold (default Rp500.000) is
 * approved on submission and posted to the cash book in the same batch.
 */
export async function submitExpense({ ctx, input }: { ctx: TenantCtx; input: ExpenseInput }) {
  const by = requireUser(ctx).userId;
  if (input.date > todayJakarta(ctx)) {
    throw new Invalid("invalid_date", "date must not be in the future.", [
      { field: "date", message: "in the future" },
    ]);
  }
  if (input.receiptFileId) {
    await requireTenantFile(ctx, input.receiptFileId, { purposes: ["nota"], field: "receiptFileId" });
  }
  const { expenseApprovalThreshold } = await loadFinanceSettings(ctx);
  const id = newId();
  const now = nowIso(ctx);
  const auto = input.amount < expenseApprovalThreshold;
  const entry = auto ? postCash(ctx, posting({ id, ...input })) : null;
  await ctx.db.batch([
    ctx.db.insert(expenses).values({
      id,
      category: input.category,
      amount: input.amount,
      date: input.date,
      description: input.description,
      receiptFileId: input.receiptFileId ?? null,
      status: auto ? "disetujui" : "diajukan",
      reason: auto ? `Disetujui otomatis (di bawah Rp${expenseApprovalThreshold})` : null,
      submittedBy: by,
      decidedBy: auto ? by : null,
      decidedAt: auto ? now : null,
      cashEntryId: entry?.id ?? null,
      updatedAt: now,
    }),
    ...(entry ? [entry.insert] : []),
    audit(ctx, {
      action: auto ? "pengeluaran.submit_approved" : "pengeluaran.submit",
      targetType: "expense",
      targetId: id,
      detail: { category: input.category, amount: input.amount, cashEntryId: entry?.id ?? null },
    }),
  ]);
  return present(ctx, await load(ctx, id));
}

export async function listExpenses({ ctx, input }: { ctx: TenantCtx; input: ExpenseListQuery }) {
  const filters: SQL[] = [
    ...afterCursor(expenses.id, input.cursor, "desc"),
    ...(input.status ? [eq(expenses.status, input.status)] : []),
  ];
  const rows = await ctx.db
    .select()
    .from(expenses)
    .where(and(...filters))
    .orderBy(desc(expenses.id))
    .limit(input.limit + 1);
  const page = keysetPage(rows, input.limit);
  return { items: page.items.map((row) => present(ctx, row)), nextCursor: page.nextCursor };
}

/**
 * The admin decides once: the UPDATE only moves a `diajukan` expense, the guard stops the batch (its
 * cash entry and audit record) when another decision got there first, and approval posts the spending.
 */
export async function decideExpense({
  ctx,
  id,
  input,
}: {
  ctx: TenantCtx;
  id: string;
  input: ExpenseDecision;
}) {
  const by = requireUser(ctx).userId;
  const current = await load(ctx, id);
  if (current.status !== "diajukan") {
    throw new Conflict("invalid_transition", `This expense is already ${current.status}.`);
  }
  if (input.status === "ditolak" && !input.reason?.trim()) {
    throw new Invalid("invalid_input", "A rejection needs a reason.", [
      { field: "reason", message: "required" },
    ]);
  }
  const now = nowIso(ctx);
  const entry = input.status === "disetujui" ? postCash(ctx, posting(current)) : null;
  try {
    await ctx.db.batch([
      ctx.db
        .update(expenses)
        .set({
          status: input.status,
          reason: input.reason ?? null,
          decidedBy: by,
          decidedAt: now,
          cashEntryId: entry?.id ?? null,
          updatedAt: now,
        })
        .where(and(eq(expenses.id, id), eq(expenses.status, "diajukan"))),
      abortBatchUnless(
        ctx.db,
        expenses,
        id,
        and(eq(expenses.decidedAt, now), eq(expenses.decidedBy, by)) as SQL,
      ),
      ...(entry ? [entry.insert] : []),
      audit(ctx, {
        action: input.status === "disetujui" ? "pengeluaran.approve" : "pengeluaran.reject",
        targetType: "expense",
        targetId: id,
        detail: { amount: current.amount, reason: input.reason ?? null, cashEntryId: entry?.id ?? null },
      }),
    ]);
  } catch (error) {
    if (isBatchAborted(error)) {
      throw new Conflict("invalid_transition", "This expense was decided meanwhile.");
    }
    throw error;
  }
  return present(ctx, await load(ctx, id));
}
