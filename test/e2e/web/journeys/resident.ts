import type { Page } from "playwright-core";
import { expect } from "vitest";
import type { Journey } from "../harness";

/** The only account these journeys change anything of (journeys share one server and database). */
const RESIDENT = "warga2.rt01@warga.test";
/** RT 01's third house owes three months (the seed): its dues are paid here, nothing else of it changes. */
const OWES_MONTHS = "warga3.rt01@warga.test";

/**
 * The test server's notification service is a stub that accepts everything and keeps nothing; the API's
 * preference routes only relay to it, so the browser keeps them here as the service would.
 */
async function keepPreferences(page: Page, url: string) {
  let preferences = {
    push: true,
    whatsapp: true,
    email: false,
    quietHours: { start: "22:00", end: "06:00" },
  };
  await page.route(`${url}/api/user/notification-preferences`, async (route) => {
    if (route.request().method() === "PUT") {
      preferences = route.request().postDataJSON();
    }
    await route.fulfill({ json: preferences });
  });
}

/** The resident's own screens: dues paid online and their receipt, the profile, the assistant. */
export const residentJourneys: Journey[] = [
  {
    name: "a resident pays a bill through the gateway's simulator and sees the receipt",
    run: async (app) => {
      const page = await app.page();
      await app.signIn(page, RESIDENT);
      await page.getByRole("link", { name: "Iuran", exact: true }).click();
      await page.getByRole("heading", { level: 1, name: "Iuran" }).waitFor();
      await app.settled(page);
      expect(await app.seriousViolations(page), "iuran: axe serious/critical").toEqual([]);
      await app.screenshot(page, "iuran-360");

      // The gateway's checkout is the local simulator's page, at the server's APP_URL: the dev port, not
      // this test server's. The browser is pointed here for it (the page and its form posts).
      const devOrigin = "http://127.0.0.1:8787";
      await page.route(`${devOrigin}/dev/payments/**`, (route) =>
        route.continue({ url: route.request().url().replace(devOrigin, app.url) }),
      );
      // The seed's social fund for this month: owed by every house.
      await page.getByRole("button", { name: /^Bayar Iuran sosial/ }).click();
      await page.waitForURL(/\/dev\/payments\/iuran-/);
      await page.getByRole("button", { name: "Bayar", exact: true }).click();
      await page.getByText("Pembayaran berhasil").waitFor();
      // The way back is the app's dues screen for this order, followed on this server's origin (as above).
      const back = new URL(
        (await page.getByRole("link", { name: "Kembali ke aplikasi" }).getAttribute("href")) ?? "",
      );
      expect(back.pathname).toBe("/iuran");
      const orderId = back.searchParams.get("bayar") ?? "";
      expect(orderId).toMatch(/^iuran-/);
      await page.goto(`${app.url}${back.pathname}${back.search}`);

      await page.getByText("Pembayaran berhasil. Terima kasih!").waitFor();
      const receipt = page.getByRole("article", { name: "Kuitansi pembayaran iuran" });
      await receipt.waitFor();
      const text = (await receipt.textContent()) ?? "";
      expect(text).toContain("Iuran sosial");
      expect(text).toContain("Rp20.000");
      expect(text).toContain("online");
      expect(text).toContain(orderId);
      expect(text).toContain("Lunas");
      await app.settled(page);
      expect(await app.seriousViolations(page), "receipt: axe serious/critical").toEqual([]);
      await app.screenshot(page, "iuran-receipt-360");
      // The bill left the unpaid list and the payment is in the history, with its own receipt page.
      await expect
        .poll(async () => page.getByRole("button", { name: /^Bayar Iuran sosial/ }).count())
        .toBe(0);
      await page
        .getByRole("link", { name: /^Kuitansi Iuran sosial/ })
        .first()
        .click();
      await page.getByRole("heading", { level: 1, name: "Kuitansi" }).waitFor();
      await page.getByRole("article", { name: "Kuitansi pembayaran iuran" }).waitFor();

      const wide = await app.page({ width: 1280, height: 800 });
      await app.signIn(wide, RESIDENT);
      await wide.goto(`${app.url}/iuran`);
      await wide.getByRole("heading", { name: "Riwayat pembayaran" }).waitFor();
      await app.settled(wide);
      expect(await app.seriousViolations(wide), "iuran desktop: axe serious/critical").toEqual([]);
      await app.screenshot(wide, "iuran-desktop");
    },
  },
  {
    name: "a resident who owes three months sees them as arrears and pays them all in one checkout",
    run: async (app) => {
      const page = await app.page();
      await app.signIn(page, OWES_MONTHS);
      await page.goto(`${app.url}/iuran`);
      await page.getByRole("heading", { level: 1, name: "Iuran" }).waitFor();
      // The months past their due day (the 10th) are tunggakan; this month is "Bulan ini" until then.
      await page.getByRole("heading", { name: "Tunggakan" }).waitFor();
      await app.settled(page);
      expect(await app.seriousViolations(page), "iuran, several months: axe serious/critical").toEqual([]);
      await app.screenshot(page, "iuran-months-360");

      // Every open bill is ticked at first: one button pays them all, through one gateway order.
      const payAll = page.getByRole("button", { name: /^Bayar \d+ tagihan/ });
      const label = (await payAll.textContent()) ?? "";
      const count = Number(/Bayar (\d+) tagihan/.exec(label)?.[1] ?? 0);
      expect(count, label).toBeGreaterThanOrEqual(3);
      const devOrigin = "http://127.0.0.1:8787";
      await page.route(`${devOrigin}/dev/payments/**`, (route) =>
        route.continue({ url: route.request().url().replace(devOrigin, app.url) }),
      );
      await payAll.click();
      await page.waitForURL(/\/dev\/payments\/iuran-/);
      await page.getByRole("button", { name: "Bayar", exact: true }).click();
      await page.getByText("Pembayaran berhasil").waitFor();
      const back = new URL(
        (await page.getByRole("link", { name: "Kembali ke aplikasi" }).getAttribute("href")) ?? "",
      );
      await page.goto(`${app.url}${back.pathname}${back.search}`);
      await page.getByText("Pembayaran berhasil. Terima kasih!").waitFor();
      // One receipt per bill the order paid, and nothing left to pay.
      await expect
        .poll(async () => page.getByRole("article", { name: "Kuitansi pembayaran iuran" }).count())
        .toBe(count);
      await page.goto(`${app.url}/iuran`);
      await page.getByText("Semua iuran sudah lunas. Terima kasih!").waitFor();
    },
  },
  {
    name: "a resident edits their profile, sees their household, downloads their data and changes a notification",
    run: async (app) => {
      // The preferences are answered in the browser (keepPreferences), out of the service worker's way.
      const page = await app.page(undefined, { serviceWorkers: "block" });
      await keepPreferences(page, app.url);
      await app.signIn(page, RESIDENT);
      await page.goto(`${app.url}/profil`);
      await page.getByRole("heading", { level: 1, name: "Profil" }).waitFor();
      await app.settled(page);

      const name = page.getByLabel("Nama lengkap");
      await name.fill("Siti Aminah Rahayu");
      await page.getByRole("button", { name: "Simpan profil" }).click();
      await page.getByText("Profil tersimpan.").waitFor();

      const household = page.getByRole("article", { name: "Keluarga saya" });
      await household.getByText("Anda", { exact: true }).waitFor();
      expect(await household.getByRole("listitem").count()).toBeGreaterThan(0);

      const download = page.waitForEvent("download");
      await page.getByRole("button", { name: "Unduh data saya" }).click();
      const file = await download;
      expect(file.suggestedFilename()).toBe("warga-data-saya.json");
      const saved = await file.path();
      const { readFileSync } = await import("node:fs");
      expect(readFileSync(saved, "utf8")).toContain("Siti Aminah Rahayu");

      const whatsapp = page.getByRole("checkbox", { name: "WhatsApp" });
      const before = await whatsapp.isChecked();
      await whatsapp.setChecked(!before);
      await page.getByRole("button", { name: "Simpan notifikasi" }).click();
      await page.getByText("Pengaturan notifikasi tersimpan.").waitFor();
      await page.reload();
      await page.getByRole("checkbox", { name: "WhatsApp" }).waitFor();
      await app.settled(page);
      expect(await page.getByRole("checkbox", { name: "WhatsApp" }).isChecked()).toBe(!before);
      expect(await page.getByLabel("Nama lengkap").inputValue()).toBe("Siti Aminah Rahayu");

      expect(await app.seriousViolations(page), "profil: axe serious/critical").toEqual([]);
      await app.screenshot(page, "profil-360");
    },
  },
  {
    name: "a resident asks the assistant two questions in one conversation",
    run: async (app) => {
      const page = await app.page();
      await app.signIn(page, RESIDENT);
      await page.goto(`${app.url}/asisten`);
      await page.getByRole("heading", { level: 1, name: "Asisten" }).waitFor();
      await app.settled(page);
      const log = page.getByRole("list", { name: "Percakapan" });
      const ask = async (question: string, turns: number) => {
        await page.getByLabel("Pesan Anda").fill(question);
        await page.getByRole("button", { name: "Kirim", exact: true }).click();
        await expect
          .poll(async () => log.locator(".asisten-assistant:not(.asisten-typing)").count())
          .toBe(turns);
        expect(await page.getByLabel("Pesan Anda").inputValue()).toBe("");
      };
      await ask("Berapa iuran saya yang belum dibayar?", 1);
      await ask("Surat apa saja yang bisa saya ajukan?", 2);
      expect(await log.locator(".asisten-user").count()).toBe(2);
      const text = (await log.textContent()) ?? "";
      expect(text).toContain("Berapa iuran saya yang belum dibayar?");
      expect(await app.seriousViolations(page), "asisten: axe serious/critical").toEqual([]);
      await app.screenshot(page, "asisten-360");
    },
  },
  // Last of this account's journeys: it ends every session of it.
  {
    name: "a resident signs out everywhere: this browser and another are both signed out",
    run: async (app) => {
      const other = await app.page();
      await app.signIn(other, RESIDENT);
      // The preferences are answered in the browser (keepPreferences), out of the service worker's way.
      const page = await app.page(undefined, { serviceWorkers: "block" });
      await keepPreferences(page, app.url);
      await app.signIn(page, RESIDENT);
      await page.goto(`${app.url}/profil`);
      await page.getByRole("button", { name: "Keluar dari semua perangkat" }).click();
      await page.getByRole("button", { name: "Ya, keluar dari semua perangkat" }).click();
      await page.waitForURL(/\/login/);
      await page.getByRole("heading", { level: 1, name: "Masuk ke Warga" }).waitFor();
      // The other browser's sign-in has ended too: a reload finds no session.
      await other.reload();
      await other.waitForURL(/\/login/);
      await other.getByRole("heading", { level: 1, name: "Masuk ke Warga" }).waitFor();
    },
  },
];
