import { and, asc, eq, gte, lte } from "drizzle-orm";
import { audit } from "../../../core/audit";
import type { TenantCtx } from "../../../core/context";
import { newId } from "../../../core/ids";
import { monthRows } from "../kas/bulanan";
import { budgetLines, budgetYears, cashMonths } from "../tables";
import type { BudgetInput } from "./schemas";

const percent = (part: number, whole: number) => (whole > 0 ? Math.round((part / whole) * 1000) / 10 : 0);

/**
 * The year's budget per category with its realisation: the net spending of the year's cash-book
 * entries of that category (spending minus corrections that returned money), from the kept month totals.
 */
export async function getBudget({ ctx, year }: { ctx: TenantCtx; year: number }) {
  const [lines, spent] = await ctx.db.batch([
    ctx.db.select().from(budgetLines).where(eq(budgetLines.year, year)).orderBy(asc(budgetLines.category)),
    // The year's twelve kept month totals per category (ADR 0028), not every entry of the year.
    monthRows(ctx.db, and(gte(cashMonths.month, `${year}-01`), lte(cashMonths.month, `${year}-12`))),
  ]);
  const realisedBy = new Map(
    spent.map((s) => [s.category, Math.max(0, Number(s.expense) - Number(s.income))]),
  );
  const items = lines.map((line) => {
    const realised = realisedBy.get(line.category) ?? 0;
    return {
      category: line.category,
      amount: line.amount,
      realised,
      percentUsed: percent(realised, line.amount),
    };
  });
  const amount = items.reduce((sum, l) => sum + l.amount, 0);
  const realised = items.reduce((sum, l) => sum + l.realised, 0);
  return { year, lines: items, totals: { amount, realised, percentUsed: percent(realised, amount) } };
}

/**
 * Replaces the year's budget lines in one batch, with the audit record of the old and new lines. The
 * batch also writes the year's row (`budget_years`), whose version is the budget's `ETag` (ADR 0035):
 * the year's version moves exactly when its lines are rewritten, and an `If-Match` guard ahead of this
 * batch refuses it whole when another PUT landed first.
 */
export async function putBudget({ ctx, year, input }: { ctx: TenantCtx; year: number; input: BudgetInput }) {
  const before = await ctx.db.select().from(budgetLines).where(eq(budgetLines.year, year));
  const updatedAt = ctx.now().toISOString();
  await ctx.db.batch([
    ctx.db
      .insert(budgetYears)
      .values({ year, updatedAt })
      .onConflictDoUpdate({ target: budgetYears.year, set: { updatedAt } }),
    ctx.db.delete(budgetLines).where(eq(budgetLines.year, year)),
    ...input.lines.map((line) =>
      ctx.db.insert(budgetLines).values({ id: newId(), year, category: line.category, amount: line.amount }),
    ),
    audit(ctx, {
      action: "anggaran.put",
      targetType: "budget",
      targetId: String(year),
      detail: {
        before: before.map((l) => ({ category: l.category, amount: l.amount })),
        after: input.lines,
      },
    }),
  ]);
  return getBudget({ ctx, year });
}
