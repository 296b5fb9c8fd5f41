import { expect } from "vitest";
import type { Journey } from "../harness";

const RESIDENT = "warga1.rt01@warga.test";

/** The app as a whole: how it is served, signing in and out, the token kept from page script, layouts. */
export const shellJourneys: Journey[] = [
  {
    name: "is served as a deploy serves it: the app for page paths, the Worker first for its own paths",
    run: async ({ url }) => {
      // A browser's page load (what the assets' single-page-application handling answers with index.html).
      const load = (path: string) =>
        fetch(`${url}${path}`, { headers: { accept: "text/html", "sec-fetch-mode": "navigate" } });
      for (const path of ["/", "/tidak-ada-di-sini"]) {
        const res = await load(path);
        expect(res.status, path).toBe(200);
        expect(await res.text(), path).toContain('<html lang="id">');
        // public/_headers, as the assets serve it.
        expect(res.headers.get("content-security-policy"), path).toContain("connect-src 'self'");
      }
      // Paths in wrangler.toml's run_worker_first reach the Worker even on a page load: its problem, not the app.
      const api = await load("/api/tidak-ada-di-sini");
      expect(api.status).toBe(404);
      expect(api.headers.get("content-type")).toContain("application/problem+json");
      const health = await (await fetch(`${url}/api/health`)).json();
      expect(health).toMatchObject({ status: "ok" });
    },
  },
  {
    name: "a resident signs in, sees home with their data, reloads and stays signed in, holds no readable token, signs out",
    run: async (app) => {
      const page = await app.page();
      const context = page.context();
      await page.goto(`${app.url}/`);
      await page.waitForURL(/\/login\?next=/);
      await page.getByRole("heading", { level: 1, name: "Masuk ke Warga" }).waitFor();
      expect(await app.seriousViolations(page), "sign-in: axe serious/critical").toEqual([]);
      await app.screenshot(page, "sign-in-360");

      await app.signIn(page, RESIDENT);
      expect(new URL(page.url()).pathname).toBe("/");
      // The demo resident's own data: the dues block and the latest announcements have arrived.
      await page.getByRole("heading", { name: "Iuran belum dibayar" }).waitFor();
      await app.settled(page);
      const text = (await page.locator("main").textContent()) ?? "";
      expect(text).toMatch(/Rp\d{1,3}(\.\d{3})+|Tidak ada iuran/);
      expect(text).toContain("RT 01");
      expect(await app.seriousViolations(page), "home: axe serious/critical").toEqual([]);
      await app.screenshot(page, "home-360");

      // No token is readable by page script: not in document.cookie, not in either storage.
      const readable = await page.evaluate(() => ({
        cookie: document.cookie,
        local: Object.entries(localStorage),
        session: Object.entries(sessionStorage),
      }));
      expect(readable.cookie).not.toContain("warga_refresh");
      expect(JSON.stringify([readable.local, readable.session])).not.toMatch(/eyJ|token/i);
      // The browser does hold it: HttpOnly, Secure (accepted on loopback), SameSite=Strict, path-scoped.
      const cookies = (await context.cookies()).filter((c) => c.name === "warga_refresh");
      expect(cookies.map((c) => c.path).sort()).toEqual(["/api/auth/logout", "/api/auth/refresh"]);
      for (const c of cookies) {
        expect(c).toMatchObject({ httpOnly: true, secure: true, sameSite: "Strict" });
      }

      await page.reload();
      await page.getByRole("heading", { level: 1, name: /^Halo, / }).waitFor();

      await page.getByRole("button", { name: "Keluar" }).click();
      await page.waitForURL(/\/login/);
      await page.reload();
      await page.getByRole("heading", { level: 1, name: "Masuk ke Warga" }).waitFor();
      expect((await context.cookies()).filter((c) => c.name === "warga_refresh")).toEqual([]);

      await page.goto(`${app.url}/tidak-ada-di-sini`);
      await page.getByRole("heading", { level: 1, name: "Halaman tidak ditemukan" }).waitFor();
    },
  },
  {
    name: "lays out home on a desktop screen too",
    run: async (app) => {
      const page = await app.page({ width: 1280, height: 800 });
      await page.goto(`${app.url}/login`);
      await app.signIn(page, RESIDENT);
      await app.settled(page);
      expect(await app.seriousViolations(page)).toEqual([]);
      await app.screenshot(page, "home-desktop");
    },
  },
];
