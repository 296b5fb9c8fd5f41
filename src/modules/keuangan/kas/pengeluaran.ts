import { and, desc, eq, type SQL, sql } from "drizzle-orm";
import { audit } from "../../../core/audit";
import type { TenantCtx } from "../../../core/context";
import { abortBatchUnless, isBatchAborted } from "../../../core/db/errors";
import { afterCursor, keysetPage } from "../../../core/db/paging";
import { rowByIdOrNotFound } from "../../../core/db/rows";
import { Conflict, Forbidden, Invalid, InvalidTransition } from "../../../core/errors";
import { hasRole, ROLES, requireUser } from "../../../core/http/access";
import { newId } from "../../../core/ids";
import { nowIso } from "../../../core/time";
import { requireTenantFile, tenantFileUrl } from "../../../platform/uploads";
import { monthWindow } from "../periods";
import { loadFinanceSettings } from "../settings";
import { expenses } from "../tables";
import { postCash, todayJakarta } from "./entries";
import type { ExpenseDecision, ExpenseInput, ExpenseListQuery } from "./schemas";

type ExpenseRow = typeof expenses.$inferSelect;

/** An expense is decided once: `diajukan → disetujui | ditolak`, then final. */
const EXPENSE_NEXT: Record<ExpenseRow["status"], ExpenseRow["status"][]> = {
  diajukan: ["disetujui", "ditolak"],
  disetujui: [],
  ditolak: [],
};

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
 * What `by` approved of their own submissions in the month of `now`: the expenses no one else looked
 * at (approved on submission under the threshold). A subquery, so the batch's guard can ask it again
 * after its own insert.
 */
function selfApprovedTotal(by: string, now: Date) {
  const { from, to } = monthWindow(now);
  return sql<number>`(SELECT coalesce(sum(e.amount), 0) FROM ${expenses} AS e
    WHERE e.submitted_by = ${by} AND e.decided_by = ${by} AND e.status = 'disetujui'
      AND e.decided_at >= ${from} AND e.decided_at < ${to})`;
}

/**
 * A finance officer submits an expense (`diajukan`). It is approved on submission, and posted to the
 * cash book in the same batch, only while the submitter's own self-approved total of the Jakarta month,
 * this one included, stays under the tenant's threshold (default Rp500.000): pieces just under it add
 * up, and past it everything waits for another officer (issue 31 N5). The batch's guard asks the total
 * again after its insert, so two submissions at once cannot both slip under; the loser is submitted
 * for approval instead.
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
  const now = ctx.now();
  const [spent] = await ctx.db.select({ total: selfApprovedTotal(by, now) }).from(sql`(SELECT 1)`);
  const auto = Number(spent?.total ?? 0) + input.amount < expenseApprovalThreshold;
  const id = newId();
  try {
    await insertExpense(ctx, { id, by, input, auto, threshold: expenseApprovalThreshold, now });
  } catch (error) {
    if (!(auto && isBatchAborted(error))) {
      throw error;
    }
    // Another self-approved expense of the same officer landed meanwhile: this one waits instead.
    await insertExpense(ctx, { id, by, input, auto: false, threshold: expenseApprovalThreshold, now });
  }
  return present(ctx, await load(ctx, id));
}

async function insertExpense(
  ctx: TenantCtx,
  args: { id: string; by: string; input: ExpenseInput; auto: boolean; threshold: number; now: Date },
) {
  const { id, by, input, auto, threshold, now } = args;
  const at = now.toISOString();
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
      reason: auto ? `Disetujui otomatis (di bawah Rp${threshold} per bulan)` : null,
      submittedBy: by,
      submittedByHead: hasRole(ctx, ROLES.ADMIN),
      decidedBy: auto ? by : null,
      decidedAt: auto ? at : null,
      cashEntryId: entry?.id ?? null,
      updatedAt: at,
    }),
    ...(auto
      ? [abortBatchUnless(ctx.db, expenses, id, sql`${selfApprovedTotal(by, now)} < ${threshold}`)]
      : []),
    ...(entry?.writes ?? []),
    audit(ctx, {
      action: auto ? "pengeluaran.submit_approved" : "pengeluaran.submit",
      targetType: "expense",
      targetId: id,
      detail: { category: input.category, amount: input.amount, cashEntryId: entry?.id ?? null },
    }),
  ]);
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
 * Another officer decides once (issue 31 N5): never the submitter (409 `self_approval`); the head
 * decides a treasurer's expense, and the head's own goes to another officer (a treasurer, or another
 * admin), so a treasurer may decide only what a head submitted (403 otherwise). The UPDATE only moves a
 * `diajukan` expense, the guard stops the batch (its cash entry and audit record) when another decision
 * got there first, and approval posts the spending.
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
  if (!current.submittedByHead && !hasRole(ctx, ROLES.ADMIN)) {
    throw new Forbidden("forbidden_role", "Only the head decides an expense a treasurer submitted.");
  }
  if (current.submittedBy === by) {
    throw new Conflict("self_approval", "Another officer decides an expense you submitted.");
  }
  if (current.status !== "diajukan") {
    throw new InvalidTransition(`This expense is already ${current.status}.`, EXPENSE_NEXT[current.status]);
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
      ...(entry?.writes ?? []),
      audit(ctx, {
        action: input.status === "disetujui" ? "pengeluaran.approve" : "pengeluaran.reject",
        targetType: "expense",
        targetId: id,
        detail: { amount: current.amount, reason: input.reason ?? null, cashEntryId: entry?.id ?? null },
      }),
    ]);
  } catch (error) {
    if (isBatchAborted(error)) {
      throw new InvalidTransition(
        "This expense was decided meanwhile.",
        EXPENSE_NEXT[(await load(ctx, id)).status],
      );
    }
    throw error;
  }
  return present(ctx, await load(ctx, id));
}
