import { expect } from "vitest";
import { writeWorkbook } from "../../../../src/platform/spreadsheets";
import type { Journey } from "../../web/harness";

// RT 02's officers only: RT 01's data stays as the other areas' journeys expect it.
const SECRETARY = "sekretaris.rt02@warga.test";
const HEAD = "admin.rt02@warga.test";
const DESKTOP = { width: 1280, height: 800 };

interface CardRow {
  id: string;
  kkNumber: string;
  headName: string;
  notes?: string | null;
}

/** The dashboard and the registry (issue 46 items 1 and 2). */
export const registryJourneys: Journey[] = [
  {
    name: "the RT head reads the dashboard and the registry: list, card, house plan, statistics, on a phone and a desktop",
    run: async (app) => {
      for (const [viewport, size] of [
        [DESKTOP, "desktop"],
        [undefined, "360"],
      ] as const) {
        const page = await app.page(viewport);
        await app.signIn(page, HEAD);
        await page.goto(`${app.url}/pengurus`);
        await page.getByRole("heading", { level: 1, name: "Ringkasan" }).waitFor();
        await app.settled(page);
        const cards = page.getByRole("list", { name: "Indikator operasional" });
        // The residents' card opens the registry; a first visit has nothing to compare with yet.
        await cards.getByRole("link", { name: /Warga terdaftar/ }).waitFor();
        await page.getByText("Perubahan akan terlihat mulai kunjungan berikutnya.").waitFor();
        expect(await app.seriousViolations(page), `dashboard ${size}: axe`).toEqual([]);
        // The next visit shows each card's change since this one.
        await page.reload();
        await app.settled(page);
        await cards
          .getByText(/sejak kunjungan terakhir/)
          .first()
          .waitFor();
        await app.screenshot(page, `console-registry-dashboard-${size}`);

        await cards.getByRole("link", { name: /Warga terdaftar/ }).click();
        await page.getByRole("heading", { level: 1, name: "Kartu keluarga" }).waitFor();
        await app.settled(page);
        const table = page.getByRole("table", { name: "Daftar kartu keluarga" });
        await table.getByRole("link").first().waitFor();
        expect(await app.seriousViolations(page), `registry list ${size}: axe`).toEqual([]);
        await app.screenshot(page, `console-registry-list-${size}`);

        // Search by a head's name; open the card.
        const first = (await table.getByRole("link").first().textContent()) ?? "";
        await page.getByLabel("Cari nama, NIK, No. KK, plat, atau blok").fill(first.split(" ")[0] ?? first);
        await page.getByRole("button", { name: "Cari", exact: true }).click();
        await app.settled(page);
        await table.getByRole("link", { name: first }).first().click();
        await page.getByRole("heading", { level: 1, name: /^Kartu keluarga \d{16}$/ }).waitFor();
        await page.getByRole("table", { name: "Anggota kartu keluarga" }).waitFor();
        await page.getByRole("cell", { name: first }).first().waitFor();
        expect(await app.seriousViolations(page), `card ${size}: axe`).toEqual([]);
        await app.screenshot(page, `console-registry-card-${size}`);

        const sub = page.getByRole("navigation", { name: "Bagian data warga" });
        await sub.getByRole("link", { name: "Peta rumah" }).click();
        await page.getByRole("heading", { level: 1, name: "Peta rumah" }).waitFor();
        await app.settled(page);
        await page.getByRole("img", { name: /^Denah \d+ rumah/ }).waitFor();
        await page.getByRole("table", { name: "Rumah dan koordinatnya" }).waitFor();
        expect(await app.seriousViolations(page), `house plan ${size}: axe`).toEqual([]);
        await app.screenshot(page, `console-registry-map-${size}`);

        await sub.getByRole("link", { name: "Statistik" }).click();
        await page.getByRole("heading", { level: 1, name: "Statistik warga" }).waitFor();
        await app.settled(page);
        await page.getByText("Jiwa per blok").waitFor();
        expect(await app.seriousViolations(page), `statistics ${size}: axe`).toEqual([]);
        await app.screenshot(page, `console-registry-stats-${size}`);

        await sub.getByRole("link", { name: "Koreksi" }).click();
        await page.getByRole("heading", { level: 1, name: "Koreksi dari warga" }).waitFor();
        await app.settled(page);
        expect(await app.seriousViolations(page), `corrections ${size}: axe`).toEqual([]);
        await app.screenshot(page, `console-registry-corrections-${size}`);

        await sub.getByRole("link", { name: "Mutasi" }).click();
        await page.getByRole("heading", { level: 1, name: "Riwayat mutasi" }).waitFor();
        await app.settled(page);
        expect(await app.seriousViolations(page), `life events ${size}: axe`).toEqual([]);
        await app.screenshot(page, `console-registry-mutasi-${size}`);
        if (size === "desktop") {
          // The app's language switch: the registry's own words follow it.
          await page.getByRole("button", { name: "English" }).click();
          await page.getByRole("heading", { level: 1, name: "Life events" }).waitFor();
          await page
            .getByRole("navigation", { name: "Registry sections" })
            .getByRole("link", { name: "Family cards" })
            .waitFor();
          await app.screenshot(page, "console-registry-mutasi-en-desktop");
        }
      }

      // The treasurer's dashboard links dues to their work, but not residents to a registry they cannot open.
      const treasurer = await app.page();
      await app.signIn(treasurer, "bendahara.rt02@warga.test");
      await treasurer.goto(`${app.url}/pengurus`);
      const theirs = treasurer.getByRole("list", { name: "Indikator operasional" });
      await theirs.getByRole("link", { name: /Tunggakan iuran/ }).waitFor();
      await theirs.getByText("Warga terdaftar").waitFor();
      expect(await theirs.getByRole("link", { name: /Warga terdaftar/ }).count()).toBe(0);
    },
  },
  {
    name: "two officers edit one family card at once and the second sees the conflict",
    run: async (app) => {
      const secretary = await app.apiAs(SECRETARY);
      const list = (await (await secretary("GET", "/api/kependudukan/kk?status=aktif&limit=10")).json()) as {
        items: CardRow[];
      };
      // The list masks the KK number; the card itself shows it whole.
      const listed = list.items.at(-1) as CardRow;
      const card = (await (await secretary("GET", `/api/kependudukan/kk/${listed.id}`)).json()) as CardRow;
      const edit = `${app.url}/pengurus/warga/kk/${card.id}/ubah`;

      const first = await app.page(DESKTOP);
      await app.signIn(first, SECRETARY);
      const second = await app.page();
      await app.signIn(second, HEAD);
      for (const page of [first, second]) {
        await page.goto(edit);
        await page.getByRole("heading", { level: 1, name: `Ubah kartu keluarga ${card.kkNumber}` }).waitFor();
        await app.settled(page);
      }
      expect(await app.seriousViolations(first), "card edit: axe").toEqual([]);
      await app.screenshot(first, "console-registry-edit-desktop");

      const stamp = Date.now().toString(36);
      const theirs = `Dicek sekretaris ${stamp}`;
      const mine = `Dicek ketua ${stamp}`;
      await first.getByLabel("Catatan").fill(theirs);
      await first.getByRole("button", { name: "Simpan kartu" }).click();
      await first.getByRole("heading", { level: 1, name: `Kartu keluarga ${card.kkNumber}` }).waitFor();
      await first.getByText(theirs).waitFor();

      // The head saves over a version that is no longer the latest: told, with their words kept.
      await second.getByLabel("Catatan").fill(mine);
      await second.getByRole("button", { name: "Simpan kartu" }).click();
      await second.getByText("Data ini baru saja diubah oleh pengurus lain.").waitFor();
      expect(await second.getByLabel("Catatan").inputValue()).toBe(mine);
      expect(await app.seriousViolations(second), "conflict: axe").toEqual([]);
      await app.screenshot(second, "console-registry-conflict-360");
      const stored = async () =>
        ((await (await secretary("GET", `/api/kependudukan/kk/${card.id}`)).json()) as CardRow).notes;
      expect(await stored()).toBe(theirs);

      // They choose theirs: saved over the latest version.
      await second.getByRole("button", { name: "Simpan versi saya" }).click();
      await second.getByRole("heading", { level: 1, name: `Kartu keluarga ${card.kkNumber}` }).waitFor();
      await second.getByText(mine).waitFor();
      expect(await stored()).toBe(mine);

      // The secretary, reopening the form, now reads the head's words.
      await first.goto(edit);
      await app.settled(first);
      await expect.poll(() => first.getByLabel("Catatan").inputValue()).toBe(mine);
    },
  },
  {
    name: "an import's dry run shows its report and writes nothing",
    run: async (app) => {
      const secretary = await app.apiAs(SECRETARY);
      const families = async () =>
        ((await (await secretary("GET", "/api/kependudukan/statistik")).json()) as { totalFamilies: number })
          .totalFamilies;
      const before = await families();
      const header = [
        "No. KK",
        "Blok",
        "No. Rumah",
        "NIK",
        "Nama",
        "Hubungan",
        "Jenis Kelamin",
        "Tanggal Lahir",
      ];
      const workbook = writeWorkbook([
        {
          name: "Anggota",
          header,
          rows: [
            // A good row: a new family of one at Z 1.
            [
              "3204020101299001",
              "Z",
              "1",
              "3204021503809001",
              "Kepala Impor Baik",
              "kepala_keluarga",
              "L",
              "1980-03-15",
            ],
            // A bad one: the NIK's day is 32.
            [
              "3204020101299002",
              "Z",
              "2",
              "3204023213829002",
              "Kepala Impor Salah",
              "kepala_keluarga",
              "L",
              "1982-03-32",
            ],
          ],
        },
      ]);

      const page = await app.page();
      await app.signIn(page, SECRETARY);
      await page.goto(`${app.url}/pengurus/warga/impor`);
      await page.getByRole("heading", { level: 1, name: "Impor & ekspor" }).waitFor();
      expect(await app.seriousViolations(page), "import: axe").toEqual([]);
      await page.getByLabel("Berkas data warga").setInputFiles({
        name: "warga-rt02.xlsx",
        mimeType: "application/vnd.openxmlformats-officedocument.spreadsheetml.sheet",
        buffer: Buffer.from(workbook),
      });
      await page.getByRole("button", { name: "Periksa berkas" }).click();
      await page.getByRole("heading", { name: "Hasil pemeriksaan" }).waitFor();
      await page.getByText(/^Ada \d+ masalah\. Tidak ada yang ditulis/).waitFor();
      // On a phone each cell is read with its column's name before it (the card layout): match the text.
      const problems = page.getByRole("table", { name: "Masalah di berkas" });
      await problems.getByText("NIK", { exact: true }).first().waitFor();
      // The problem is on the bad row (3, after the header and the good row), not on the good one.
      expect(await problems.locator("tbody tr td:nth-child(2)").allTextContents()).not.toContain("2");
      await problems.locator("tbody tr td:nth-child(2)", { hasText: /^3$/ }).first().waitFor();
      // A report with problems offers no import.
      expect(await page.getByRole("button", { name: "Impor sekarang" }).count()).toBe(0);
      expect(await app.seriousViolations(page), "import report: axe").toEqual([]);
      await app.screenshot(page, "console-registry-import-report-360");
      expect(await families()).toBe(before);

      // On a desktop, the report reads the same.
      const desk = await app.page(DESKTOP);
      await app.signIn(desk, SECRETARY);
      await desk.goto(`${app.url}/pengurus/warga/impor`);
      await desk.getByLabel("Berkas data warga").setInputFiles({
        name: "warga-rt02.xlsx",
        mimeType: "application/vnd.openxmlformats-officedocument.spreadsheetml.sheet",
        buffer: Buffer.from(workbook),
      });
      await desk.getByRole("button", { name: "Periksa berkas" }).click();
      await desk.getByRole("table", { name: "Masalah di berkas" }).waitFor();
      await app.screenshot(desk, "console-registry-import-report-desktop");
      expect(await families()).toBe(before);
    },
  },
];
