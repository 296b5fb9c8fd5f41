import { execFileSync } from "node:child_process";
import { readFileSync } from "node:fs";
import { createRequire } from "node:module";
import { join } from "node:path";
import { type Browser, type Page, chromium as playwright } from "playwright-core";
import { afterAll, beforeAll, describe, expect, inject, it } from "vitest";
// @ts-expect-error: a plain .mjs helper shared with npm run dev and deploy.
import { buildWeb } from "../../scripts/build-web.mjs";
// @ts-expect-error: a plain .mjs helper shared with the benchmark scripts.
import { root } from "../../scripts/lib/dev-server.mjs";
import { type E2eServer, startSeededServer } from "./server";

/**
 * The web app in a real Chromium (Debian's, driven by playwright-core: nothing downloaded) against the
 * real local API with the demo data (ADR 0041): the journeys a person makes, an axe-core check of each
 * screen, and screenshots for the README. The server (test/e2e/server.ts) is the deploy bundle on
 * workerd serving public/ as a deploy does (the app's index.html for any page path, the Worker first
 * for wrangler.toml's `run_worker_first` paths, public/_headers), over fresh databases with the demo seed.
 */
const chromium = inject("chromium");
const DEMO = { email: "warga1.rt01@warga.test", password: "warga-demo-2026" };
// The README's screenshots are refreshed on request (WARGA_SCREENSHOTS=docs); an ordinary run writes them
// under .cache, so `npm test` leaves the work tree as it found it.
const SCREENSHOTS =
  process.env.WARGA_SCREENSHOTS === "docs"
    ? join(root, "docs", "screenshots")
    : join(root, ".cache", "screenshots");
const axeSource = readFileSync(createRequire(import.meta.url).resolve("axe-core/axe.min.js"), "utf8");

// The app's build, the bundle, workerd's start, migrations and seed: about half a minute on a quiet
// 2-core machine; the margin is for one shared with other test files.
const SETUP_MS = 300_000;

let server: E2eServer | undefined;
let unavailable: string | undefined = chromium.ready ? undefined : chromium.reason;
let browser: Browser | undefined;

beforeAll(async () => {
  if (unavailable) {
    return;
  }
  // The app as its sources are now, built before the server lists public/.
  await buildWeb();
  // Both started together; each is kept as soon as it is up, so afterAll stops it even if the other failed.
  await Promise.all([
    startSeededServer({ assets: true }).then((started) => {
      server = started.server;
      unavailable ??= started.unavailable;
    }),
    playwright
      .launch({
        executablePath: execFileSync("sh", ["-c", "command -v chromium"], { encoding: "utf8" }).trim(),
        // Every host but loopback resolves nowhere: the app must need nothing from outside.
        args: ["--no-sandbox", "--host-resolver-rules=MAP * ~NOTFOUND, EXCLUDE 127.0.0.1"],
      })
      .then((b) => {
        browser = b;
      }),
  ]);
}, SETUP_MS);

afterAll(async () => {
  await browser?.close();
  await server?.stop();
});

/** axe-core's serious and critical findings on the page as it is now (injected past the page's CSP). */
async function seriousViolations(page: Page): Promise<string[]> {
  await page.evaluate(axeSource);
  const found = await page.evaluate(async () => {
    const axe = (
      window as unknown as {
        axe: {
          run: (
            c: Document,
          ) => Promise<{ violations: { id: string; impact: string; nodes: { target: string[] }[] }[] }>;
        };
      }
    ).axe;
    const result = await axe.run(document);
    return result.violations.map((v) => ({
      id: v.id,
      impact: v.impact,
      where: v.nodes.map((n) => n.target.join(" ")),
    }));
  });
  return found
    .filter((v) => v.impact === "serious" || v.impact === "critical")
    .map((v) => `${v.impact} ${v.id}: ${v.where.join(", ")}`);
}

async function signIn(page: Page) {
  await page.getByLabel("Email").fill(DEMO.email);
  await page.getByLabel("Kata sandi").fill(DEMO.password);
  await page.getByRole("button", { name: "Masuk" }).click();
  await page.getByRole("heading", { level: 1, name: /^Halo, / }).waitFor();
}

const JOURNEY_MS = 240_000;

describe("the web app in a browser", () => {
  it("is served as a deploy serves it: the app for page paths, the Worker first for its own paths", async (t) => {
    t.skip(unavailable !== undefined, unavailable);
    const url = (server as E2eServer).url;
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
  });

  it(
    "a resident signs in, sees home with their data, reloads and stays signed in, holds no readable token, signs out",
    async (t) => {
      t.skip(unavailable !== undefined, unavailable);
      const context = await (browser as Browser).newContext({ viewport: { width: 360, height: 640 } });
      const page = await context.newPage();
      const errors: string[] = [];
      page.on("pageerror", (e) => errors.push(e.message));
      const url = (server as { url: string }).url;

      await page.goto(`${url}/`);
      await page.waitForURL(/\/login\?next=/);
      await page.getByRole("heading", { level: 1, name: "Masuk ke Warga" }).waitFor();
      expect(await seriousViolations(page), "sign-in: axe serious/critical").toEqual([]);
      await page.screenshot({ path: join(SCREENSHOTS, "sign-in-360.png"), fullPage: true });

      await signIn(page);
      expect(new URL(page.url()).pathname).toBe("/");
      // The demo resident's own data: the dues block and the latest announcements have arrived.
      await page.getByRole("heading", { name: "Iuran belum dibayar" }).waitFor();
      await page.waitForFunction(() => document.querySelectorAll("[role=status] .skeleton").length === 0);
      const text = (await page.locator("main").textContent()) ?? "";
      expect(text).toMatch(/Rp\d{1,3}(\.\d{3})+|Tidak ada iuran/);
      expect(text).toContain("RT 01");
      expect(await seriousViolations(page), "home: axe serious/critical").toEqual([]);
      await page.screenshot({ path: join(SCREENSHOTS, "home-360.png"), fullPage: true });

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

      await page.goto(`${url}/tidak-ada-di-sini`);
      await page.getByRole("heading", { level: 1, name: "Halaman tidak ditemukan" }).waitFor();
      expect(errors).toEqual([]);
      await context.close();
    },
    JOURNEY_MS,
  );

  it(
    "lays out home on a desktop screen too",
    async (t) => {
      t.skip(unavailable !== undefined, unavailable);
      const context = await (browser as Browser).newContext({ viewport: { width: 1280, height: 800 } });
      const page = await context.newPage();
      await page.goto(`${(server as { url: string }).url}/login`);
      await signIn(page);
      await page.waitForFunction(() => document.querySelectorAll("[role=status] .skeleton").length === 0);
      expect(await seriousViolations(page)).toEqual([]);
      await page.screenshot({ path: join(SCREENSHOTS, "home-desktop.png"), fullPage: true });
      await context.close();
    },
    JOURNEY_MS,
  );
});
