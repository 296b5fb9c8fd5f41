import { and, asc, desc, eq, gt, gte, lt, or, sql } from "drizzle-orm";
import type { TenantCtx } from "../../../core/context";
import { escapeHtml } from "../../../core/html";
import { jakartaDay } from "../../../core/time";
import type { CellOut, SheetStream } from "../../../platform/spreadsheets";
import { unitsByIds } from "../../kependudukan/service";
import { cashEntries, cashMonths, duesBills, duesPayments } from "../tables";

/**
 * The finance part of a community's handover pack (platform-ops' archive, issue 45): the dues and the
 * cash book as sheets a new committee or a kelurahan opens, read in keyset pages as the workbook writer
 * reaches them, and the cash book of a year as a printable page. The monthly reports come from
 * `report.ts` as they are (its workbook and its page), never from a second builder.
 */

/** Rows per read: a page is all the writer holds at once. */
const PAGE = 1000;

/** Keyset pages by `id`, each turned into rows (with one lookup a page) when the writer asks for it. */
async function* pagesById<T extends { id: string }>(
  read: (after: string | null) => Promise<T[]>,
  present: (rows: T[]) => Promise<CellOut[][]>,
): AsyncGenerator<CellOut[][]> {
  let after: string | null = null;
  for (;;) {
    const rows = await read(after);
    if (rows.length > 0) {
      yield await present(rows);
    }
    if (rows.length < PAGE) {
      return;
    }
    after = rows.at(-1)?.id ?? null;
  }
}

async function housesOf(ctx: TenantCtx, unitIds: string[]) {
  const houses = await unitsByIds({ ctx, ids: unitIds });
  return (id: string) => houses.get(id) ?? { block: null, number: null };
}

const STATUS = { belum: "Belum bayar", sebagian: "Sebagian", lunas: "Lunas" } as const;

/** Every bill, with its house. */
function billSheet(ctx: TenantCtx): SheetStream {
  return {
    name: "Tagihan",
    header: [
      "Periode",
      "Jenis Iuran",
      "Dasar",
      "Blok",
      "No. Rumah",
      "Jumlah (Rp)",
      "Terbayar (Rp)",
      "Sisa (Rp)",
      "Status",
    ],
    widths: [10, 24, 8, 8, 10, 14, 14, 14, 12],
    pages: () =>
      pagesById(
        (after) =>
          ctx.db
            .select()
            .from(duesBills)
            .where(after ? gt(duesBills.id, after) : undefined)
            .orderBy(asc(duesBills.id))
            .limit(PAGE),
        async (rows) => {
          const house = await housesOf(
            ctx,
            rows.map((b) => b.unitId),
          );
          return rows.map((b) => [
            b.period,
            b.typeName,
            b.basis === "kk" ? "Per KK" : "Per rumah",
            house(b.unitId).block,
            house(b.unitId).number,
            b.amount,
            b.paidAmount,
            b.amount - b.paidAmount,
            STATUS[b.status],
          ]);
        },
      ),
  };
}

/** Every payment, with its bill's period, type and house, and its reversal if any. */
function paymentSheet(ctx: TenantCtx): SheetStream {
  return {
    name: "Pembayaran",
    header: [
      "Tanggal Bayar",
      "Periode",
      "Jenis Iuran",
      "Blok",
      "No. Rumah",
      "Jumlah (Rp)",
      "Metode",
      "Dibatalkan",
      "Alasan Pembatalan",
    ],
    widths: [12, 10, 24, 8, 10, 14, 10, 12, 30],
    pages: () =>
      pagesById(
        (after) =>
          ctx.db
            .select({
              id: duesPayments.id,
              paidAt: duesPayments.paidAt,
              amount: duesPayments.amount,
              method: duesPayments.method,
              reversedAt: duesPayments.reversedAt,
              reversalReason: duesPayments.reversalReason,
              period: duesBills.period,
              typeName: duesBills.typeName,
              unitId: duesBills.unitId,
            })
            .from(duesPayments)
            .leftJoin(duesBills, eq(duesBills.id, duesPayments.billId))
            .where(after ? gt(duesPayments.id, after) : undefined)
            .orderBy(asc(duesPayments.id))
            .limit(PAGE),
        async (rows) => {
          const house = await housesOf(
            ctx,
            rows.flatMap((p) => (p.unitId ? [p.unitId] : [])),
          );
          return rows.map((p) => [
            jakartaDay(p.paidAt),
            p.period,
            p.typeName,
            p.unitId ? house(p.unitId).block : null,
            p.unitId ? house(p.unitId).number : null,
            p.amount,
            p.method,
            p.reversedAt ? jakartaDay(p.reversedAt) : null,
            p.reversalReason,
          ]);
        },
      ),
  };
}

/** The dues: every bill (sheet Tagihan) and every payment with its reversal (sheet Pembayaran). */
export function duesSheets(ctx: TenantCtx): SheetStream[] {
  return [billSheet(ctx), paymentSheet(ctx)];
}

const CASH_HEADER = ["Tanggal", "Jenis", "Kategori", "Uraian", "Masuk (Rp)", "Keluar (Rp)", "Sumber"];

/** Cash entries in book order (day, then id), from `from` (inclusive) to `to` (exclusive), a page at a time. */
async function* cashPages(ctx: TenantCtx, from?: string, to?: string): AsyncGenerator<CellOut[][]> {
  let after: { date: string; id: string } | null = null;
  for (;;) {
    const rows = await ctx.db
      .select()
      .from(cashEntries)
      .where(
        and(
          from ? gte(cashEntries.date, from) : undefined,
          to ? lt(cashEntries.date, to) : undefined,
          after
            ? or(
                gt(cashEntries.date, after.date),
                and(eq(cashEntries.date, after.date), gt(cashEntries.id, after.id)),
              )
            : undefined,
        ),
      )
      .orderBy(asc(cashEntries.date), asc(cashEntries.id))
      .limit(PAGE);
    if (rows.length > 0) {
      yield rows.map((e) => [
        e.date,
        e.kind === "masuk" ? "Masuk" : "Keluar",
        e.category,
        e.note,
        e.kind === "masuk" ? e.amount : null,
        e.kind === "keluar" ? e.amount : null,
        e.source,
      ]);
    }
    const last = rows.at(-1);
    if (rows.length < PAGE || !last) {
      return;
    }
    after = { date: last.date, id: last.id };
  }
}

/** The whole cash book, one sheet, in the order the money moved. */
export function cashBookSheets(ctx: TenantCtx): SheetStream[] {
  return [
    {
      name: "Buku Kas",
      header: CASH_HEADER,
      widths: [12, 8, 20, 40, 14, 14, 12],
      pages: () => cashPages(ctx),
    },
  ];
}

/** The years the cash book has entries in, newest first. */
export async function cashBookYears(ctx: TenantCtx): Promise<string[]> {
  const rows = await ctx.db
    .selectDistinct({ year: sql<string>`substr(${cashMonths.month}, 1, 4)` })
    .from(cashMonths)
    .where(gt(cashMonths.entries, 0))
    .orderBy(desc(sql`substr(${cashMonths.month}, 1, 4)`));
  return rows.map((r) => r.year);
}

/** The months a report has figures for (cash moved or dues billed), newest first, at most `limit`. */
export async function reportMonths(ctx: TenantCtx, limit: number): Promise<string[]> {
  const [cash, billed] = await ctx.db.batch([
    ctx.db
      .selectDistinct({ month: cashMonths.month })
      .from(cashMonths)
      .orderBy(desc(cashMonths.month))
      .limit(limit),
    ctx.db
      .selectDistinct({ month: duesBills.period })
      .from(duesBills)
      .orderBy(desc(duesBills.period))
      .limit(limit),
  ]);
  return [...new Set([...cash, ...billed].map((r) => r.month))].sort().reverse().slice(0, limit);
}

const rp = (amount: number) => `Rp${new Intl.NumberFormat("id-ID").format(amount)}`;

/**
 * The cash book of one year as a printable page: the opening balance, every entry with the running
 * balance, and the year's totals. At most `maxRows` entries (a year of an RT is a few hundred); past
 * that the page says so and points to the workbook, which holds them all.
 */
export async function cashBookHtml(ctx: TenantCtx, year: string, maxRows: number): Promise<string> {
  const [opening] = await ctx.db
    .select({ total: sql<number>`coalesce(sum(${cashMonths.income} - ${cashMonths.expense}), 0)` })
    .from(cashMonths)
    .where(lt(cashMonths.month, `${year}-01`));
  let balance = Number(opening?.total ?? 0);
  const start = balance;
  let income = 0;
  let expense = 0;
  let shown = 0;
  let cut = false;
  let body = "";
  for await (const page of cashPages(ctx, `${year}-01-01`, `${Number(year) + 1}-01-01`)) {
    for (const [date, kind, category, note, masuk, keluar] of page) {
      if (shown >= maxRows) {
        cut = true;
        break;
      }
      const inAmount = Number(masuk ?? 0);
      const outAmount = Number(keluar ?? 0);
      balance += inAmount - outAmount;
      income += inAmount;
      expense += outAmount;
      shown += 1;
      body += `<tr><td>${escapeHtml(String(date))}</td><td>${escapeHtml(String(kind))}</td><td>${escapeHtml(String(category))}</td><td>${escapeHtml(String(note ?? ""))}</td><td class="n">${inAmount ? rp(inAmount) : ""}</td><td class="n">${outAmount ? rp(outAmount) : ""}</td><td class="n">${rp(balance)}</td></tr>`;
    }
    if (cut) {
      break;
    }
  }
  return `<!doctype html><html lang="id"><head><meta charset="utf-8"><title>Buku kas ${year}</title>
<style>body{font-family:sans-serif;font-size:9pt;color:#111}h1{font-size:15pt;margin:0}
table{width:100%;border-collapse:collapse}td,th{border-bottom:1px solid #ccc;padding:3px 5px;text-align:left}.n{text-align:right;white-space:nowrap}
.total td{font-weight:bold;border-top:2px solid #333}</style></head><body>
<h1>Buku Kas ${escapeHtml(ctx.tenant.name)}</h1><p>Tahun ${year}</p>
<table><tr><th>Tanggal</th><th>Jenis</th><th>Kategori</th><th>Uraian</th><th class="n">Masuk</th><th class="n">Keluar</th><th class="n">Saldo</th></tr>
<tr><td colspan="6">Saldo awal tahun</td><td class="n">${rp(start)}</td></tr>${body}
<tr class="total"><td colspan="4">Jumlah${cut ? ` (${shown} entri pertama)` : ""}</td><td class="n">${rp(income)}</td><td class="n">${rp(expense)}</td><td class="n">${rp(balance)}</td></tr></table>
${cut ? "<p>Entri selanjutnya tidak dicetak di sini; buku kas lengkap ada di berkas buku-kas.xlsx.</p>" : ""}
</body></html>`;
}
