import { and, eq, gte, lt, lte, sql } from "drizzle-orm";
import type { TenantCtx } from "../../../core/context";
import { NotFound } from "../../../core/errors";
import { escapeHtml } from "../../../core/html";
import { sha256Hex } from "../../../core/ids";
import { jakartaDayStart } from "../../../core/time";
import { pdfRendering } from "../../../platform/pdf";
import { writeWorkbook } from "../../../platform/spreadsheets";
import { monthRows } from "../kas/bulanan";
import { nextPeriod } from "../periods";
import { loadFinanceSettings } from "../settings";
import { cashMonths, duesBalances, duesBills, duesPayments } from "../tables";

const percent = (part: number, whole: number) => (whole > 0 ? Math.round((part / whole) * 1000) / 10 : 0);

/**
 * The month's report: balances, income and spending by category, dues billed against collected and
 * the arrears. It carries no names of payers or donors, so the public transparency page serves it as is.
 */
export async function financeReport({ ctx, month }: { ctx: TenantCtx; month: string }) {
  const monthStart = jakartaDayStart(`${month}-01`).toISOString();
  const monthEnd = jakartaDayStart(`${nextPeriod(month)}-01`).toISOString();
  // The month's cash figures and its opening balance are the kept month totals (ADR 0028).
  const [byCategory, [opening], [billed], [received], [reversed], [owed]] = await ctx.db.batch([
    monthRows(ctx.db, eq(cashMonths.month, month)),
    ctx.db
      .select({ total: sql<number>`coalesce(sum(${cashMonths.income} - ${cashMonths.expense}), 0)` })
      .from(cashMonths)
      .where(lt(cashMonths.month, month)),
    ctx.db
      .select({
        billed: sql<number>`coalesce(sum(${duesBills.amount}), 0)`,
        collected: sql<number>`coalesce(sum(${duesBills.paidAmount}), 0)`,
      })
      .from(duesBills)
      .where(eq(duesBills.period, month)),
    ctx.db
      .select({ total: sql<number>`coalesce(sum(${duesPayments.amount}), 0)` })
      .from(duesPayments)
      .where(and(gte(duesPayments.paidAt, monthStart), lt(duesPayments.paidAt, monthEnd))),
    // A reversal stays in its own month, as its cash entry does: a past month's figures do not move.
    ctx.db
      .select({ total: sql<number>`coalesce(sum(${duesPayments.amount}), 0)` })
      .from(duesPayments)
      .where(and(gte(duesPayments.reversedAt, monthStart), lt(duesPayments.reversedAt, monthEnd))),
    // What is owed today on the periods up to the month: the kept balances (ADR 0028), not every bill.
    ctx.db
      .select({ total: sql<number>`coalesce(sum(${duesBalances.outstanding}), 0)` })
      .from(duesBalances)
      .where(lte(duesBalances.period, month)),
  ]);
  const openingBalance = Number(opening?.total ?? 0);
  const side = (kind: "income" | "expense") => {
    // A category appears on a side only with entries of that kind (amounts are positive).
    const rows = byCategory
      .map((r) => ({ category: r.category, amount: Number(r[kind]) }))
      .filter((r) => r.amount > 0);
    return { total: rows.reduce((sum, r) => sum + r.amount, 0), byCategory: rows };
  };
  const income = side("income");
  const expense = side("expense");
  const duesBilled = Number(billed?.billed ?? 0);
  const collected = Number(billed?.collected ?? 0);
  return {
    tenantName: ctx.tenant.name,
    month,
    openingBalance,
    income,
    expense,
    closingBalance: openingBalance + income.total - expense.total,
    dues: {
      billed: duesBilled,
      collected,
      percentCollected: percent(collected, duesBilled),
      receivedInMonth: Number(received?.total ?? 0),
      reversedInMonth: Number(reversed?.total ?? 0),
    },
    arrearsTotal: Number(owed?.total ?? 0),
    generatedAt: ctx.now().toISOString(),
  };
}

export type FinanceReport = Awaited<ReturnType<typeof financeReport>>;

/** The transparency page: the same report, only while the community's admin has it switched on. */
export async function publicFinanceReport({ ctx, month }: { ctx: TenantCtx; month: string }) {
  const { transparansi } = await loadFinanceSettings(ctx);
  if (!transparansi) {
    throw new NotFound("Report");
  }
  return financeReport({ ctx, month });
}

const rp = (amount: number) => `Rp${new Intl.NumberFormat("id-ID").format(amount)}`;

export function reportHtml(report: FinanceReport): string {
  const rows = (side: FinanceReport["income"]) =>
    side.byCategory
      .map((r) => `<tr><td>${escapeHtml(r.category)}</td><td class="n">${rp(r.amount)}</td></tr>`)
      .join("");
  return `<!doctype html><html lang="id"><head><meta charset="utf-8"><title>Laporan keuangan ${report.month}</title>
<style>body{font-family:sans-serif;font-size:11pt;color:#111}h1{font-size:16pt;margin:0}h2{font-size:12pt;margin-top:18px}
table{width:100%;border-collapse:collapse}td,th{border-bottom:1px solid #ccc;padding:4px 6px;text-align:left}.n{text-align:right}
.total td{font-weight:bold;border-top:2px solid #333}</style></head><body>
<h1>Laporan Keuangan ${escapeHtml(report.tenantName)}</h1><p>Bulan ${report.month}</p>
<table><tr><td>Saldo awal</td><td class="n">${rp(report.openingBalance)}</td></tr></table>
<h2>Pemasukan</h2><table>${rows(report.income)}<tr class="total"><td>Total pemasukan</td><td class="n">${rp(report.income.total)}</td></tr></table>
<h2>Pengeluaran</h2><table>${rows(report.expense)}<tr class="total"><td>Total pengeluaran</td><td class="n">${rp(report.expense.total)}</td></tr></table>
<h2>Saldo akhir</h2><table><tr class="total"><td>Saldo akhir</td><td class="n">${rp(report.closingBalance)}</td></tr></table>
<h2>Iuran</h2><table>
<tr><td>Ditagihkan bulan ini</td><td class="n">${rp(report.dues.billed)}</td></tr>
<tr><td>Terbayar atas tagihan bulan ini</td><td class="n">${rp(report.dues.collected)} (${report.dues.percentCollected}%)</td></tr>
<tr><td>Iuran diterima selama bulan ini</td><td class="n">${rp(report.dues.receivedInMonth)}</td></tr>
<tr><td>Pembayaran iuran dibatalkan selama bulan ini</td><td class="n">${rp(report.dues.reversedInMonth)}</td></tr>
<tr><td>Total tunggakan s.d. bulan ini</td><td class="n">${rp(report.arrearsTotal)}</td></tr></table>
</body></html>`;
}

/**
 * The report as PDF through the letters' Browser Rendering path, cached in R2 per month and version:
 * the version is a hash of the report's figures, so any new posting gives a new file and an unchanged
 * month is served from storage.
 */
export async function reportPdf({ ctx, month }: { ctx: TenantCtx; month: string }) {
  const report = await financeReport({ ctx, month });
  const { generatedAt, ...figures } = report;
  const version = (await sha256Hex(JSON.stringify(figures))).slice(0, 16);
  const key = `tenants/${ctx.tenant.slug}/keuangan/laporan/${month}/${version}.pdf`;
  const filename = `laporan-keuangan-${month}.pdf`;
  const stored = await ctx.env.FILES.get(key);
  if (stored) {
    return { body: stored.body as ReadableStream, filename, source: "r2" as const };
  }
  const bytes = await pdfRendering.create(ctx.env).render(reportHtml(report));
  await ctx.env.FILES.put(key, bytes, {
    httpMetadata: { contentType: "application/pdf" },
    customMetadata: { month, version, generatedAt },
  });
  return { body: bytes, filename, source: "render" as const };
}

/** The report as a workbook: the summary, then income and spending by category. */
export async function reportXlsx({ ctx, month }: { ctx: TenantCtx; month: string }) {
  const r = await financeReport({ ctx, month });
  const byCategory = (side: FinanceReport["income"]) => [
    ...side.byCategory.map((row) => [row.category, row.amount]),
    ["Total", side.total],
  ];
  const bytes = writeWorkbook([
    {
      name: "Ringkasan",
      header: ["Keterangan", "Jumlah (Rp)"],
      widths: [40, 18],
      rows: [
        ["Komunitas", r.tenantName],
        ["Bulan", r.month],
        ["Saldo awal", r.openingBalance],
        ["Total pemasukan", r.income.total],
        ["Total pengeluaran", r.expense.total],
        ["Saldo akhir", r.closingBalance],
        ["Iuran ditagihkan", r.dues.billed],
        ["Iuran terbayar atas tagihan bulan ini", r.dues.collected],
        ["Iuran diterima selama bulan ini", r.dues.receivedInMonth],
        ["Pembayaran iuran dibatalkan selama bulan ini", r.dues.reversedInMonth],
        ["Total tunggakan s.d. bulan ini", r.arrearsTotal],
      ],
    },
    { name: "Pemasukan", header: ["Kategori", "Jumlah (Rp)"], widths: [40, 18], rows: byCategory(r.income) },
    {
      name: "Pengeluaran",
      header: ["Kategori", "Jumlah (Rp)"],
      widths: [40, 18],
      rows: byCategory(r.expense),
    },
  ]);
  return { body: bytes, filename: `laporan-keuangan-${month}.xlsx` };
}
