import { readFile } from "node:fs/promises";
import { expect } from "vitest";
import type { Journey } from "../harness";

// Only these two change data here, so the other areas' journeys on the same server see what they expect.
const RESIDENT = "warga3.rt01@warga.test";
const SECRETARY = "sekretaris.rt01@warga.test";

/** A 1 × 1 PNG, as a phone's camera would hand over a photo (the API recognises images by their bytes). */
const PNG = Buffer.from(
  "iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNkYPhfDwAChwGA60e6kgAAAABJRU5ErkJggg==",
  "base64",
);
const photo = (name: string) => ({ name, mimeType: "image/png", buffer: PNG });

/** The resident's letters, complaints and market (issue 43 part B). */
export const lettersJourneys: Journey[] = [
  {
    name: "a resident requests a letter, the secretary finishes it through the API, the resident downloads the PDF",
    run: async (app) => {
      const page = await app.page();
      await page.goto(`${app.url}/login`);
      await app.signIn(page, RESIDENT);
      await page.goto(`${app.url}/surat`);
      await page.getByRole("heading", { level: 1, name: "Surat" }).waitFor();
      await app.settled(page);
      // The seed's finished letter and the one sent back for correction are there.
      await page.getByText("Surat Keterangan Belum Menikah").first().waitFor();
      expect(await app.seriousViolations(page), "surat: axe serious/critical").toEqual([]);
      await app.screenshot(page, "surat-360");

      await page.getByRole("link", { name: "Ajukan surat" }).click();
      await page.getByRole("heading", { level: 1, name: "Ajukan surat" }).waitFor();
      await app.settled(page);
      await page.getByLabel("Jenis surat").selectOption({ label: "Surat Keterangan Domisili" });
      await page.getByLabel("Keperluan").fill("Persyaratan pendaftaran BPJS Kesehatan");
      await page.getByLabel("Berdomisili sejak").fill("2020-07-01");
      expect(await app.seriousViolations(page), "surat request: axe serious/critical").toEqual([]);
      await app.screenshot(page, "surat-request-360");
      await page.getByRole("button", { name: "Kirim permintaan" }).click();
      await page.getByRole("heading", { level: 1, name: "Surat Keterangan Domisili" }).waitFor();
      await page.getByText("diajukan", { exact: true }).first().waitFor();
      const id = new URL(page.url()).pathname.split("/").at(-1) ?? "";
      expect(id).not.toBe("baru");

      // The secretary finishes it in one step, as the staff console (part 2) will; the letter takes the
      // next number itself (issue 45).
      const secretary = await app.apiAs(SECRETARY);
      const next = await secretary("GET", "/api/surat/next-number?jenis=domisili");
      expect(next.status).toBe(200);
      const suggested = ((await next.json()) as { nomorSurat: string }).nomorSurat;
      const finished = await secretary("PUT", `/api/surat/${id}`, { status: "selesai" });
      expect(finished.status, await finished.clone().text()).toBe(200);
      const { nomorSurat } = (await finished.json()) as { nomorSurat: string };
      expect(nomorSurat).toBe(suggested);

      // RT 01 has the RW's acknowledgement on: the resident sees the letter wait for the RW, with nothing
      // to download yet.
      await page.reload();
      await page.getByText("Menunggu persetujuan RW").first().waitFor();
      await app.settled(page);
      expect(await page.getByRole("button", { name: "Unduh PDF" }).count()).toBe(0);
      await app.screenshot(page, "surat-awaiting-rw-360");

      // The RW's head acknowledges it; the PDF is the resident's from then on.
      const rw = await app.apiAs("admin.rw05@warga.test");
      const acknowledged = await rw("POST", `/api/surat/rw-acknowledgements/${id}`);
      expect(acknowledged.status, await acknowledged.clone().text()).toBe(200);
      await page.reload();
      await page.getByRole("button", { name: "Unduh PDF" }).waitFor();
      await page.getByText(nomorSurat).waitFor();
      // Its history: requested, finished, acknowledged by the RW.
      await expect(page.locator(".timeline li").count()).resolves.toBeGreaterThanOrEqual(3);
      const [download] = await Promise.all([
        page.waitForEvent("download", { timeout: 90_000 }),
        page.getByRole("button", { name: "Unduh PDF" }).click(),
      ]);
      expect(download.suggestedFilename()).toMatch(/\.pdf$/);
      const file = await readFile((await download.path()) ?? "");
      expect(file.subarray(0, 4).toString("latin1")).toBe("%PDF");
    },
  },
  {
    name: "a resident files a complaint with a photo and finds it in my complaints",
    run: async (app) => {
      const page = await app.page();
      await page.goto(`${app.url}/login`);
      await app.signIn(page, RESIDENT);
      await page.goto(`${app.url}/aspirasi`);
      await page.getByRole("heading", { level: 1, name: "Aspirasi" }).waitFor();
      await app.settled(page);
      expect(await app.seriousViolations(page), "aspirasi: axe serious/critical").toEqual([]);
      await app.screenshot(page, "aspirasi-360");

      await page.getByRole("link", { name: "Buat pengaduan" }).click();
      await page.getByRole("heading", { level: 1, name: "Buat pengaduan" }).waitFor();
      const title = `Pohon tumbang di taman ${Date.now() % 10_000}`;
      await page.getByLabel("Judul pengaduan").fill(title);
      await page.getByLabel("Kategori").selectOption({ label: "Infrastruktur" });
      await page
        .getByLabel("Uraian")
        .fill("Dahan pohon tumbang menutup jalan setapak di taman bermain anak.");
      await page.getByLabel("Lokasi (boleh dikosongkan)").fill("Taman Blok A");
      await page.getByLabel("Pilih dari galeri").setInputFiles(photo("pohon.png"));
      await page.getByRole("img", { name: "Foto 1 yang dipilih" }).waitFor();
      expect(await app.seriousViolations(page), "complaint form: axe serious/critical").toEqual([]);
      await page.getByRole("button", { name: "Kirim" }).click();

      await page.getByRole("heading", { level: 1, name: title }).waitFor();
      // The photo comes back through the API (the session's token, not a public URL).
      await page.locator(`img[alt="Foto bukti: ${title}"]`).waitFor();
      await page.getByRole("link", { name: "← Kembali ke aspirasi" }).click();
      await app.settled(page);
      await page.getByRole("link", { name: new RegExp(title) }).waitFor();
    },
  },
  {
    name: "a resident puts a listing with a photo on the market and sees it when browsing",
    run: async (app) => {
      const page = await app.page();
      await page.goto(`${app.url}/login`);
      await app.signIn(page, RESIDENT);
      await page.goto(`${app.url}/pasar`);
      await page.getByRole("heading", { level: 1, name: "Pasar warga" }).waitFor();
      await app.settled(page);
      expect(await app.seriousViolations(page), "pasar: axe serious/critical").toEqual([]);
      await app.screenshot(page, "pasar-360");

      await page.getByRole("link", { name: "Jual sesuatu" }).click();
      await page.getByRole("heading", { level: 1, name: "Jual sesuatu" }).waitFor();
      await app.settled(page);
      const title = `Keripik singkong pedas ${Date.now() % 10_000}`;
      await page.getByLabel("Judul").fill(title);
      await page
        .getByLabel("Keterangan")
        .fill("Keripik singkong balado, 250 gram per bungkus, dibuat setiap pagi.");
      await page.getByLabel("Kategori").selectOption({ label: "Makanan" });
      await page.getByLabel("Kondisi barang").selectOption({ label: "Baru" });
      await page.getByLabel("Harga (Rp)").fill("15000");
      await page.getByLabel("Pilih dari galeri").setInputFiles(photo("keripik.png"));
      await page.getByRole("img", { name: "Foto 1 yang dipilih" }).waitFor();
      expect(await app.seriousViolations(page), "listing form: axe serious/critical").toEqual([]);
      await page.getByRole("button", { name: "Pasang di pasar" }).click();

      await page.getByRole("heading", { level: 1, name: title }).waitFor();
      await page.locator(`img[alt="${title}, foto 1"]`).waitFor();
      // The seller's own controls, not a WhatsApp link to themself.
      await page.getByRole("button", { name: "Tandai terjual" }).waitFor();

      await page.getByRole("link", { name: "← Kembali ke pasar" }).click();
      await app.settled(page);
      const card = page.getByRole("link", { name: new RegExp(title) });
      await card.waitFor();
      // Photos are read when they come near the screen (ui/AuthImage).
      await card.scrollIntoViewIfNeeded();
      await card.locator("img").waitFor();
    },
  },
];
