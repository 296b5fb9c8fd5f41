import { expect } from "vitest";
import type { Journey } from "../harness";

// The one account these journeys use: signing in and out changes its sessions, nothing else.
const RESIDENT = "warga3.rt02@warga.test";

/** The installable app: its manifest, and a reload without network showing what was last seen. */
export const offlineJourneys: Journey[] = [
  {
    name: "the installable app's manifest is served, parses, and names icons that are there",
    run: async ({ url }) => {
      const res = await fetch(`${url}/manifest.webmanifest`);
      expect(res.status).toBe(200);
      const manifest = (await res.json()) as {
        name: string;
        short_name: string;
        lang: string;
        start_url: string;
        display: string;
        icons: { src: string; sizes: string; type: string; purpose: string }[];
      };
      expect(manifest).toMatchObject({
        short_name: "Warga",
        lang: "id",
        start_url: "/",
        display: "standalone",
      });
      const sizes = manifest.icons.map((i) => `${i.sizes} ${i.purpose}`);
      expect(sizes).toEqual(expect.arrayContaining(["192x192 any", "512x512 any", "512x512 maskable"]));
      for (const icon of manifest.icons) {
        const file = await fetch(`${url}${icon.src}`);
        expect(file.status, icon.src).toBe(200);
        expect(file.headers.get("content-type"), icon.src).toContain(icon.type);
      }
      const html = await (await fetch(`${url}/`, { headers: { accept: "text/html" } })).text();
      expect(html).toContain('<link rel="manifest" href="/manifest.webmanifest"');
      // The worker is asked for again on every visit, so a new build reaches installed apps.
      const worker = await fetch(`${url}/sw.js`);
      expect(worker.status).toBe(200);
      expect(worker.headers.get("cache-control")).toBe("no-cache");
    },
  },
  {
    name: "a reload offline shows the last data, marked offline; back online the mark goes; sign-out clears the kept reads",
    run: async (app) => {
      const page = await app.page();
      const context = page.context();
      await page.goto(`${app.url}/login`);
      await app.signIn(page, RESIDENT);
      // The worker registers a few seconds after the page has loaded and takes it over once installed.
      await page.waitForFunction(() => navigator.serviceWorker?.controller !== null, undefined, {
        timeout: 30_000,
      });
      // Reads made from now on pass through it and are kept: open home once more, as a person would.
      await page.reload();
      await page.getByRole("heading", { level: 1, name: /^Halo, / }).waitFor();
      await page.getByRole("heading", { name: "Iuran belum dibayar" }).waitFor();
      await app.settled(page);
      const online = (await page.locator("main").textContent()) ?? "";
      const banner = page.locator(".offline");
      expect(await banner.textContent()).toBe("");

      await context.setOffline(true);
      await page.reload();
      await page.getByRole("heading", { level: 1, name: /^Halo, / }).waitFor();
      await banner
        .getByText(/^Anda sedang offline — data terakhir dilihat \d{1,2} \w+ \d{4}, \d{2}\.\d{2} WIB$/)
        .waitFor();
      await app.settled(page);
      // The same blocks with the same data as online: bills, letters, polls, announcements.
      expect(((await page.locator("main").textContent()) ?? "").replace(/\s+/g, " ")).toBe(
        online.replace(/\s+/g, " "),
      );
      expect(await page.getByRole("alert").count()).toBe(0);
      expect(await app.seriousViolations(page)).toEqual([]);
      await app.screenshot(page, "offline-360");

      await context.setOffline(false);
      await expect.poll(() => banner.textContent()).toBe("");
      // Back online the session is asked for again with the cookie: a real token, so writes work again.
      await expect.poll(() => page.evaluate(async () => (await fetch("/api/health")).status)).toBe(200);
      const kept = () =>
        page.evaluate(async () =>
          (await caches.has("warga-data")) ? (await (await caches.open("warga-data")).keys()).length : 0,
        );
      expect(await kept()).toBeGreaterThan(0);

      await page.getByRole("button", { name: "Keluar" }).click();
      await page.waitForURL(/\/login/);
      expect(await kept()).toBe(0);
      expect(await page.evaluate(() => localStorage.getItem("warga.lastUser"))).toBeNull();
    },
  },
  {
    name: "the menu offers notifications on this device, unswitched, as a labelled switch",
    run: async (app) => {
      const page = await app.page();
      await page.goto(`${app.url}/login`);
      await app.signIn(page, RESIDENT);
      await page.getByRole("link", { name: "Lainnya" }).click();
      const toggle = page.getByRole("switch", { name: "Notifikasi di perangkat ini" });
      await toggle.waitFor();
      expect(await toggle.isChecked()).toBe(false);
      expect(await toggle.isEnabled()).toBe(true);
      await page.getByText("Pengumuman, berita, surat dan tamu muncul di perangkat ini").waitFor();
      expect(await app.seriousViolations(page)).toEqual([]);
      await app.screenshot(page, "pwa-menu-push-360");
    },
  },
  {
    name: "a push arriving at the installed app shows its notification, leading to the screen it is about",
    run: async (app) => {
      const page = await app.page();
      const context = page.context();
      await context.grantPermissions(["notifications"], { origin: app.url });
      await page.goto(`${app.url}/login`);
      await page.waitForFunction(() => navigator.serviceWorker?.controller !== null, undefined, {
        timeout: 30_000,
      });
      // The push service's side, as Chromium's DevTools deliver it to the worker (what Web Push decrypts to).
      const cdp = await context.newCDPSession(page);
      const registration = new Promise<string>((resolve) => {
        cdp.on("ServiceWorker.workerRegistrationUpdated", ({ registrations }) => {
          const ours = registrations.find((r) => r.scopeURL === `${app.url}/` && !r.isDeleted);
          if (ours) {
            resolve(ours.registrationId);
          }
        });
      });
      await cdp.send("ServiceWorker.enable");
      await cdp.send("ServiceWorker.deliverPushMessage", {
        origin: app.url,
        registrationId: await registration,
        data: JSON.stringify({
          title: "Pengumuman",
          body: "Kerja bakti Minggu pagi",
          data: { screen: "pengumuman", id: "01JD0000000000000000000001" },
        }),
      });
      const shown = () =>
        page.evaluate(async () =>
          (await (await navigator.serviceWorker.ready).getNotifications()).map((n) => ({
            title: n.title,
            body: n.body,
            data: n.data as unknown,
          })),
        );
      await expect.poll(shown).toEqual([
        {
          title: "Pengumuman",
          body: "Kerja bakti Minggu pagi",
          data: { path: "/pengumuman/01JD0000000000000000000001" },
        },
      ]);
    },
  },
];
