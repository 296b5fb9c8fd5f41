import { and, eq, gte, lt, lte, type SQL, sql } from "drizzle-orm";
import type { BatchItem } from "drizzle-orm/batch";
import type { TenantCtx } from "../../../core/context";
import { nextPeriod } from "../periods";
import { cashEntries, cashMonths } from "../tables";

/**
 * The cash book's kept month totals (ADR 0028). One row per Jakarta month and category holds what the
 * month's entries of that category brought in and paid out, so a balance is the months before its day
 * plus the entries of its own month (at most one month of rows, on a covering index), not every entry
 * ever booked. `postCash` hands these statements to every batch that books an entry, after its INSERT:
 * the month's row is recomputed from the month's entries of that category as the same transaction left
 * them (never moved by a delta), so a retried or raced write cannot count twice and the row always says
 * what the entries say. Entries are never updated or deleted, so nothing else moves a month.
 */

type Db = TenantCtx["db"];

/** `YYYY-MM` of a cash day (a `YYYY-MM-DD`; longer text such as an ISO instant keeps its first 7). */
export const monthOf = (day: string) => day.slice(0, 7);

/** The entries of one month: the day text from `YYYY-MM-01` up to, not including, the next month's. */
const inMonth = (month: string) =>
  and(gte(cashEntries.date, `${month}-01`), lt(cashEntries.date, `${nextPeriod(month)}-01`));

/** Rewrites the kept row of the month and category an entry was booked in, from that month's entries. */
export function refreshCashMonth(db: Db, entry: { date: string; category: string }) {
  const month = monthOf(entry.date);
  return [
    db.delete(cashMonths).where(and(eq(cashMonths.month, month), eq(cashMonths.category, entry.category))),
    db.insert(cashMonths).select(
      db
        .select({
          month: sql<string>`${month}`.as("month"),
          category: cashEntries.category,
          income:
            sql<number>`sum(case when ${cashEntries.kind} = 'masuk' then ${cashEntries.amount} else 0 end)`.as(
              "income",
            ),
          expense:
            sql<number>`sum(case when ${cashEntries.kind} = 'keluar' then ${cashEntries.amount} else 0 end)`.as(
              "expense",
            ),
          entries: sql<number>`count(*)`.as("entries"),
        })
        .from(cashEntries)
        .where(and(eq(cashEntries.category, entry.category), inMonth(month)))
        .groupBy(cashEntries.category),
    ),
  ] as const;
}

const monthsNet = sql<number>`coalesce(sum(${cashMonths.income} - ${cashMonths.expense}), 0)`;
/** Signed sum of entries: income minus spending. */
export const entriesNet = sql<number>`coalesce(sum(case when ${cashEntries.kind} = 'masuk' then ${cashEntries.amount} else -${cashEntries.amount} end), 0)`;

/**
 * The balance of the entries (of one category, or all) dated before `day`, or up to and including it
 * with `inclusive`, as two queries for the caller's batch: the kept months before the day's month, and
 * the day's month's own entries up to the day. `sumOf` adds their answers.
 */
export function balanceUpTo(
  db: Db,
  day: string,
  opts: { inclusive?: boolean; category?: string } = {},
): [BatchItem<"sqlite">, BatchItem<"sqlite">] {
  const month = monthOf(day);
  const monthCategory = opts.category ? [eq(cashMonths.category, opts.category)] : [];
  const entryCategory = opts.category ? [eq(cashEntries.category, opts.category)] : [];
  return [
    db
      .select({ total: monthsNet })
      .from(cashMonths)
      .where(and(lt(cashMonths.month, month), ...monthCategory)),
    db
      .select({ total: entriesNet })
      .from(cashEntries)
      .where(
        and(
          ...entryCategory,
          gte(cashEntries.date, `${month}-01`),
          opts.inclusive ? lte(cashEntries.date, day) : lt(cashEntries.date, day),
        ),
      ),
  ];
}

/** The balance of every entry (of one category, or all): the kept months alone. */
export function balanceOfAll(db: Db, category?: string): BatchItem<"sqlite"> {
  return db
    .select({ total: monthsNet })
    .from(cashMonths)
    .where(category ? eq(cashMonths.category, category) : undefined);
}

/** The total of one or more `{ total }` answers of the queries above. */
export function sumOf(...answers: unknown[]): number {
  return answers.reduce<number>(
    (sum, rows) => sum + Number((rows as { total: number | null }[])[0]?.total ?? 0),
    0,
  );
}

/** The balance before `day` (of one category, or all), in one round trip of its own. */
export async function balanceBefore(ctx: Pick<TenantCtx, "db">, day: string, category?: string) {
  const [months, days] = await ctx.db.batch(balanceUpTo(ctx.db, day, { category }));
  return sumOf(months, days);
}

/** One month's kept rows: income and spending per category, the report's and the budget's figures. */
export function monthRows(db: Db, where: SQL | undefined) {
  return db
    .select({
      category: cashMonths.category,
      income: sql<number>`sum(${cashMonths.income})`,
      expense: sql<number>`sum(${cashMonths.expense})`,
    })
    .from(cashMonths)
    .where(where)
    .groupBy(cashMonths.category)
    .orderBy(cashMonths.category);
}
