import { and, asc, eq, isNull, sql } from "drizzle-orm";
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import type { TenantCtx } from "../../../src/core/context";
import { putBudget } from "../../../src/modules/keuangan/anggaran/budget";
import { generateBills } from "../../../src/modules/keuangan/iuran/generate";
import { createDuesType } from "../../../src/modules/keuangan/iuran/jenis";
import { recordPayment } from "../../../src/modules/keuangan/iuran/payments";
import { reversePayment } from "../../../src/modules/keuangan/iuran/pembatalan";
import { correctCashEntry, createCashEntry, listCash } from "../../../src/modules/keuangan/kas/entries";
import { decideExpense, submitExpense } from "../../../src/modules/keuangan/kas/pengeluaran";
import { financeReport } from "../../../src/modules/keuangan/laporan/report";
import {
  cashEntries,
  cashMonths,
  duesBills,
  duesPayments,
  expenses,
} from "../../../src/modules/keuangan/tables";
import { memberCtx } from "../../helpers/contexts";
import { community } from "./helpers";

/**
 * Issue 32, ADR 0028: the cash book's kept month totals (`cash_months`) are rewritten in the batch of
 * every write that books an entry. Random sequences of those writes (manual entries on days around month
 * ends, corrections, expenses approved on submission or by another officer, dues payments and their
 * reversals) must leave the kept rows equal to a full recomputation from `cash_entries`, and the cash
 * book's balances, the monthly report and the budget read through them equal to sums over every entry.
 */

const NOW = new Date("2026-04-20T05:00:00.000Z");
const TODAY = "2026-04-20";
const DAYS = [
  "2025-12-31",
  "2026-01-01",
  "2026-01-15",
  "2026-01-31",
  "2026-02-01",
  "2026-02-28",
  "2026-03-01",
  "2026-03-31",
  "2026-04-01",
  TODAY,
];
const CATEGORIES = ["Keamanan", "Kebersihan", "Sosial"] as const;
const MONTHS = ["2025-12", "2026-01", "2026-02", "2026-03", "2026-04"] as const;

type Op =
  | { kind: "entry"; masuk: boolean; category: number; day: number; amount: number }
  | { kind: "correct"; entry: number }
  | { kind: "expense"; category: number; day: number; amount: number }
  | { kind: "approve"; expense: number }
  | { kind: "pay"; bill: number; part: number }
  | { kind: "reverse"; payment: number };

const op: fc.Arbitrary<Op> = fc.oneof(
  fc.record({
    kind: fc.constant("entry" as const),
    masuk: fc.boolean(),
    category: fc.nat(CATEGORIES.length - 1),
    day: fc.nat(DAYS.length - 1),
    amount: fc.integer({ min: 1, max: 2_000_000 }),
  }),
  fc.record({ kind: fc.constant("correct" as const), entry: fc.nat(30) }),
  fc.record({
    kind: fc.constant("expense" as const),
    category: fc.nat(CATEGORIES.length - 1),
    day: fc.nat(DAYS.length - 1),
    amount: fc.integer({ min: 1_000, max: 900_000 }),
  }),
  fc.record({ kind: fc.constant("approve" as const), expense: fc.nat(30) }),
  fc.record({
    kind: fc.constant("pay" as const),
    bill: fc.nat(30),
    part: fc.double({ min: 0.1, max: 1, noNaN: true }),
  }),
  fc.record({ kind: fc.constant("reverse" as const), payment: fc.nat(30) }),
);

/** What the kept rows must say: every entry grouped by its month and category, straight from the book. */
async function recomputed(ctx: TenantCtx) {
  const rows = await ctx.db
    .select({
      month: sql<string>`substr(${cashEntries.date}, 1, 7)`,
      category: cashEntries.category,
      income: sql<number>`sum(case when ${cashEntries.kind} = 'masuk' then ${cashEntries.amount} else 0 end)`,
      expense: sql<number>`sum(case when ${cashEntries.kind} = 'keluar' then ${cashEntries.amount} else 0 end)`,
      entries: sql<number>`count(*)`,
    })
    .from(cashEntries)
    .groupBy(sql`1`, cashEntries.category)
    .orderBy(sql`1`, asc(cashEntries.category));
  return rows.map((r) => ({
    ...r,
    income: Number(r.income),
    expense: Number(r.expense),
    entries: Number(r.entries),
  }));
}

async function kept(ctx: TenantCtx) {
  return ctx.db.select().from(cashMonths).orderBy(asc(cashMonths.month), asc(cashMonths.category));
}

type Entry = typeof cashEntries.$inferSelect;
const signed = (e: Entry) => (e.kind === "masuk" ? e.amount : -e.amount);
const total = (entries: Entry[]) => entries.reduce((sum, e) => sum + signed(e), 0);

/** The cash book's pages for one filter, walked to the end, against sums over every entry. */
async function checkBook(
  ctx: TenantCtx,
  all: Entry[],
  filter: { from?: string; to?: string; category?: string },
) {
  const ordered = all
    .filter((e) => !filter.category || e.category === filter.category)
    .sort((a, b) => (a.date === b.date ? a.id.localeCompare(b.id) : a.date.localeCompare(b.date)));
  const opening = total(ordered.filter((e) => filter.from !== undefined && e.date < filter.from));
  const inRange = ordered.filter(
    (e) => (!filter.from || e.date >= filter.from) && (!filter.to || e.date <= filter.to),
  );
  let balance = opening;
  const expected = inRange.map((e) => {
    balance += signed(e);
    return { id: e.id, balance };
  });
  const seen: { id: string; balance: number }[] = [];
  let cursor: string | undefined;
  do {
    const page = await listCash({ ctx, input: { ...filter, cursor, limit: 3 } });
    expect(page.openingBalance).toBe(opening);
    expect(page.closingBalance).toBe(opening + total(inRange));
    seen.push(...page.items.map((i) => ({ id: i.id, balance: i.balance })));
    cursor = page.nextCursor ?? undefined;
  } while (cursor);
  expect(seen).toEqual(expected);
}

async function checkReads(ctx: TenantCtx, filter: { from: number; to: number; category: number }) {
  const all = await ctx.db.select().from(cashEntries);
  const [a, b] = [DAYS[filter.from] as string, DAYS[filter.to] as string].sort();
  const category = CATEGORIES[filter.category];
  await checkBook(ctx, all, {});
  await checkBook(ctx, all, { from: a, to: b });
  await checkBook(ctx, all, { from: a, category });
  await checkBook(ctx, all, { to: b, category });
  for (const month of MONTHS) {
    const report = await financeReport({ ctx, month });
    const inMonth = all.filter((e) => e.date.startsWith(month));
    expect(report.openingBalance).toBe(total(all.filter((e) => e.date < `${month}-01`)));
    const side = (kind: "masuk" | "keluar") =>
      CATEGORIES.map((c) => ({
        category: c,
        amount: inMonth.filter((e) => e.kind === kind && e.category === c).reduce((s, e) => s + e.amount, 0),
      })).filter((r) => r.amount > 0);
    expect(report.income.byCategory).toEqual(side("masuk"));
    expect(report.expense.byCategory).toEqual(side("keluar"));
    expect(report.closingBalance).toBe(total(all.filter((e) => e.date < `${month}-32`)));
  }
}

describe("kept cash month totals", () => {
  it("equal a full recomputation from the cash book after any sequence of entries, corrections, expenses, payments and reversals (property)", async () => {
    const c = await community();
    const ctx = { ...(await memberCtx(c.tenant.slug, c.bendahara, "bendahara")), now: () => NOW };
    const head = { ...(await memberCtx(c.tenant.slug, c.admin, "admin")), now: () => NOW };
    await createDuesType({
      ctx,
      input: { name: "Keamanan", amount: 50_000, basis: "unit", startPeriod: "2026-01", active: true },
    });
    for (const period of ["2026-01", "2026-02", "2026-03"]) {
      await generateBills({ ctx, period });
    }
    let checked = 0;

    await fc.assert(
      fc.asyncProperty(
        fc.array(op, { minLength: 1, maxLength: 8 }),
        fc.record({ from: fc.nat(DAYS.length - 1), to: fc.nat(DAYS.length - 1), category: fc.nat(2) }),
        async (ops, filter) => {
          for (const step of ops) {
            await apply(ctx, head, step);
            expect(await kept(ctx)).toEqual(await recomputed(ctx));
            checked += 1;
          }
          await checkReads(ctx, filter);
        },
      ),
      {
        numRuns: 10,
        // First, always: six plain entries over the days and categories, so the book is never nearly
        // empty whatever the random runs draw.
        examples: [
          [
            Array.from({ length: 6 }, (_, i) => ({
              kind: "entry" as const,
              masuk: i % 2 === 0,
              category: i % CATEGORIES.length,
              day: i % DAYS.length,
              amount: 10_000 * (i + 1),
            })),
            { from: 0, to: DAYS.length - 1, category: 0 },
          ],
        ],
      },
    );
    expect(checked).toBeGreaterThan(10);
    expect((await ctx.db.select().from(cashEntries)).length).toBeGreaterThan(5);
    // The budget's realisation is the year's net spending per category, read from the kept months.
    const all = await ctx.db.select().from(cashEntries);
    const lines = CATEGORIES.map((category) => ({ category, amount: 10_000_000 }));
    const budget = await putBudget({ ctx: head, year: 2026, input: { lines } });
    const spent = (category: string) =>
      Math.max(
        0,
        all
          .filter((e) => e.category === category && e.date.startsWith("2026"))
          .reduce((s, e) => s - signed(e), 0),
      );
    expect(budget.lines.map((l) => [l.category, l.realised])).toEqual(
      CATEGORIES.map((cat) => [cat, spent(cat)]),
    );
  }, 300_000);

  it("backs the cash book and the report with the kept rows: a month written around the verbs shows there", async () => {
    const c = await community();
    const ctx = { ...(await memberCtx(c.tenant.slug, c.bendahara, "bendahara")), now: () => NOW };
    await createCashEntry({
      ctx,
      input: { kind: "masuk", category: "Sosial", amount: 100_000, date: "2026-02-10", note: "Kas awal" },
    });
    expect((await listCash({ ctx, input: { from: "2026-03-01", limit: 10 } })).openingBalance).toBe(100_000);
    // Only the kept row moves: if the balance still summed the entries, it would not see this.
    await ctx.db.update(cashMonths).set({ income: 7 }).where(eq(cashMonths.month, "2026-02"));
    expect((await listCash({ ctx, input: { from: "2026-03-01", limit: 10 } })).openingBalance).toBe(7);
    expect((await listCash({ ctx, input: { limit: 10 } })).closingBalance).toBe(7);
    expect((await financeReport({ ctx, month: "2026-03" })).openingBalance).toBe(7);
    expect((await financeReport({ ctx, month: "2026-02" })).income.total).toBe(7);
  });
});

async function apply(ctx: TenantCtx, head: TenantCtx, step: Op) {
  if (step.kind === "entry") {
    await createCashEntry({
      ctx,
      input: {
        kind: step.masuk ? "masuk" : "keluar",
        category: CATEGORIES[step.category] as string,
        amount: step.amount,
        date: DAYS[step.day] as string,
        note: "Catatan kas",
      },
    });
  } else if (step.kind === "correct") {
    const open = await ctx.db
      .select()
      .from(cashEntries)
      .where(and(eq(cashEntries.source, "manual")))
      .orderBy(asc(cashEntries.id));
    const corrected = new Set((await ctx.db.select().from(cashEntries)).map((e) => e.reversesId));
    const entry = open.filter((e) => !corrected.has(e.id))[step.entry % Math.max(open.length, 1)];
    if (entry) {
      await correctCashEntry({ ctx, id: entry.id, input: { reason: "Salah catat" } });
    }
  } else if (step.kind === "expense") {
    await submitExpense({
      ctx,
      input: {
        category: CATEGORIES[step.category] as string,
        amount: step.amount,
        date: DAYS[step.day] as string,
        description: "Belanja keperluan warga",
      },
    });
  } else if (step.kind === "approve") {
    const waiting = await ctx.db
      .select()
      .from(expenses)
      .where(eq(expenses.status, "diajukan"))
      .orderBy(asc(expenses.id));
    const expense = waiting[step.expense % Math.max(waiting.length, 1)];
    if (expense) {
      await decideExpense({ ctx: head, id: expense.id, input: { status: "disetujui" } });
    }
  } else if (step.kind === "pay") {
    const open = await ctx.db
      .select()
      .from(duesBills)
      .where(eq(duesBills.status, "belum"))
      .orderBy(asc(duesBills.id));
    const bill = open[step.bill % Math.max(open.length, 1)];
    if (bill) {
      const amount = Math.max(1, Math.round(bill.amount * step.part));
      await recordPayment({
        ctx,
        id: bill.id,
        input: { amount, method: "transfer", paidAt: "2026-03-31T18:00:00.000Z" },
      });
    }
  } else {
    const standing = await ctx.db
      .select()
      .from(duesPayments)
      .where(isNull(duesPayments.reversedAt))
      .orderBy(asc(duesPayments.id));
    const payment = standing[step.payment % Math.max(standing.length, 1)];
    if (payment) {
      await reversePayment({ ctx, id: payment.id, input: { reason: "Salah catat tagihan" } });
    }
  }
}
