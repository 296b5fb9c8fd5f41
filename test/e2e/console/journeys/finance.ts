import type { Page } from "playwright-core";
import { expect } from "vitest";
import type { Journey, WebApp } from "../../web/harness";

// RT 02's treasurer: only these journeys change RT 02's books, so nobody else's journey sees it.
const TREASURER = "bendahara.rt02@warga.test";
const BASE = "/pengurus/keuangan";

const digits = (text: string | null): number => Number((text ?? "").replace(/[^\d]/g, ""));

/** The Jakarta month `by` months from now, `YYYY-MM`. */
function jakartaMonth(by: number): string {
  const now = new Date(Date.now() + 7 * 3_600_000);
  const index = now.getUTCFullYear() * 12 + now.getUTCMonth() + by;
  return `${Math.floor(index / 12)}-${String((index % 12) + 1).padStart(2, "0")}`;
}

async function arrearsCard(page: Page) {
  await page.getByRole("heading", { level: 1, name: "Keuangan" }).waitFor();
  const owed = await page.locator("[data-kpi=arrears]").textContent();
  const units = await page.locator("[data-kpi=arrears-units]").textContent();
  return { owed: digits(owed), units: Number(units) };
}

/** Opens a finance screen by its tab and checks it as a person (axe) and as a picture (screenshot). */
async function visit(app: WebApp, page: Page, tab: string, heading: string | RegExp, shot: string) {
  await page
    .getByRole("navigation", { name: "Bagian keuangan" })
    .getByRole("link", { name: tab, exact: true })
    .click();
  await page.getByRole("heading", { level: 1, name: heading }).waitFor();
  await app.settled(page);
  expect(await app.seriousViolations(page), `${shot}: axe serious/critical`).toEqual([]);
  await app.screenshot(page, shot);
}

/** The treasurer's desk (issue 46 item 3). */
export const financeJourneys: Journey[] = [
  {
    name: "the treasurer generates a month's bills and records a cash payment and the arrears card drops",
    run: async (app) => {
      const api = await app.apiAs(TREASURER);
      const month = jakartaMonth(1);
      const before = await api("GET", `/api/iuran/tagihan?period=${month}&limit=100`);
      expect(
        ((await before.json()) as { items: unknown[] }).items,
        "the seed has not billed next month",
      ).toEqual([]);

      const page = await app.page({ width: 1280, height: 800 });
      await app.signIn(page, TREASURER);
      await page.goto(`${app.url}${BASE}`);
      await app.settled(page);
      const start = await arrearsCard(page);
      expect(start.owed).toBeGreaterThan(0);
      expect(await app.seriousViolations(page), "finance overview: axe serious/critical").toEqual([]);
      await app.screenshot(page, "console-finance-overview-desktop");

      // Next month's bills: the preview first (nothing written), then the generation.
      await visit(app, page, "Buat tagihan", "Buat tagihan", "console-finance-generate-desktop");
      await page.getByLabel("Bulan").selectOption(month);
      await page.getByRole("button", { name: "Lihat pratinjau" }).click();
      await page.getByRole("heading", { level: 2, name: /^Pratinjau tagihan / }).waitFor();
      const count = digits(await page.locator("[data-preview=bills]").textContent());
      expect(count).toBeGreaterThan(0);
      const untouched = await api("GET", `/api/iuran/tagihan?period=${month}&limit=100`);
      expect(((await untouched.json()) as { items: unknown[] }).items, "a preview writes nothing").toEqual(
        [],
      );
      expect(await app.seriousViolations(page), "bill preview: axe serious/critical").toEqual([]);
      await app.screenshot(page, "console-finance-preview-desktop");
      await page.getByRole("button", { name: `Buat ${count} tagihan` }).click();
      await page.getByText(`${count} tagihan dibuat untuk`).waitFor();
      const issued = await api("GET", `/api/iuran/tagihan?period=${month}&limit=100`);
      expect(((await issued.json()) as { items: unknown[] }).items).toHaveLength(count);
      // Next month's bills are not due yet: the arrears stay as they were.
      await page.goto(`${app.url}${BASE}`);
      expect(await arrearsCard(page)).toEqual(start);

      // A household in arrears, from the arrears list: its overdue bill paid in cash.
      await visit(app, page, "Tunggakan", "Tunggakan", "console-finance-arrears-desktop");
      const arrears = (await (await api("GET", "/api/iuran/tunggakan?limit=1")).json()) as {
        items: { unitId: string; owed: number; unpaidBills: number }[];
      };
      const house = arrears.items[0];
      if (!house) {
        throw new Error("no household in arrears in RT 02's seed");
      }
      const bills = (await (
        await api("GET", `/api/iuran/tagihan?unitId=${house.unitId}&limit=100`)
      ).json()) as {
        items: { id: string; period: string; typeName: string; outstanding: number }[];
      };
      const overdue = bills.items
        .filter((b) => b.outstanding > 0 && b.period <= jakartaMonth(0))
        .sort((a, b) => a.period.localeCompare(b.period))[0];
      if (!overdue) {
        throw new Error("no overdue bill at the first house in arrears");
      }
      await page.locator(`a[href="${BASE}/pembayaran?unit=${house.unitId}"]`).first().click();
      await page.getByRole("heading", { level: 1, name: "Pembayaran" }).waitFor();
      await app.settled(page);
      const form = page.getByRole("form", { name: "Catat pembayaran" });
      await form.getByLabel("Tagihan").selectOption(overdue.id);
      expect(await form.getByLabel("Nominal").inputValue()).toBe(String(overdue.outstanding));
      await form.getByLabel("Cara bayar").selectOption("tunai");
      expect(await app.seriousViolations(page), "payments: axe serious/critical").toEqual([]);
      await app.screenshot(page, "console-finance-payment-desktop");
      await form.getByRole("button", { name: "Catat pembayaran" }).click();
      await page.getByRole("status").filter({ hasText: "tercatat" }).waitFor();
      const after = (await (
        await api("GET", `/api/iuran/tagihan?unitId=${house.unitId}&limit=100`)
      ).json()) as {
        items: { id: string; outstanding: number }[];
      };
      expect(after.items.find((b) => b.id === overdue.id)?.outstanding).toBe(0);

      // The overview's arrears card drops by what was paid (and by a house, when that was its last).
      await page
        .getByRole("navigation", { name: "Bagian keuangan" })
        .getByRole("link", { name: "Ringkasan" })
        .click();
      await app.settled(page);
      const end = await arrearsCard(page);
      expect(end.owed).toBe(start.owed - overdue.outstanding);
      expect(end.units).toBe(house.unpaidBills === 1 ? start.units - 1 : start.units);
    },
  },
  {
    name: "the treasurer reads the finance screens on a phone and a desktop",
    run: async (app) => {
      for (const [size, viewport] of [
        ["360", { width: 360, height: 640 }],
        ["desktop", { width: 1280, height: 800 }],
      ] as const) {
        const page = await app.page(viewport);
        await app.signIn(page, TREASURER);
        await page.goto(`${app.url}${BASE}`);
        await page.getByRole("heading", { level: 1, name: "Keuangan" }).waitFor();
        await app.settled(page);
        expect(await app.seriousViolations(page), "overview: axe serious/critical").toEqual([]);
        await app.screenshot(page, `console-finance-overview-${size}`);
        await visit(app, page, "Jenis iuran", "Jenis iuran", `console-finance-types-${size}`);
        await visit(app, page, "Buku kas", "Buku kas", `console-finance-cash-${size}`);
        await page.getByText("Saldo akhir").first().waitFor();
        await visit(app, page, "Anggaran", /^Anggaran /, `console-finance-budget-${size}`);
        await visit(app, page, "Pengeluaran", "Pengeluaran", `console-finance-expenses-${size}`);
        await visit(app, page, "Penggalangan dana", "Penggalangan dana", `console-finance-campaigns-${size}`);
        await visit(app, page, "Laporan bulanan", "Laporan bulanan", `console-finance-report-${size}`);
        await page.getByRole("button", { name: "Unduh Excel" }).waitFor();
        await visit(app, page, "Tunggakan", "Tunggakan", `console-finance-arrears-${size}`);
      }

      // The treasurer's own expense: the API keeps the duties apart, and the screen says so plainly.
      const page = await app.page({ width: 1280, height: 800 });
      await app.signIn(page, TREASURER);
      await page.goto(`${app.url}${BASE}/pengeluaran`);
      await app.settled(page);
      const row = page.getByRole("row").filter({ hasText: "Ganti 6 lampu jalan gang" });
      await row.getByRole("button", { name: "Setujui" }).click();
      const dialog = page.getByRole("dialog");
      await dialog.getByRole("button", { name: "Setujui" }).click();
      await dialog.getByRole("alert").waitFor();
      expect(await app.seriousViolations(page), "expense refusal: axe serious/critical").toEqual([]);
      await app.screenshot(page, "console-finance-expense-refused-desktop");
      await dialog.getByRole("button", { name: "Batal" }).click();
    },
  },
];
