import { execFileSync } from "node:child_process";
import { readFileSync } from "node:fs";
import { createRequire } from "node:module";
import { join } from "node:path";
import { type Browser, type Page, chromium as playwright } from "playwright-core";
import { afterAll, beforeAll, describe, expect, inject, it } from "vitest";
// @ts-expect-error: a plain .mjs helper shared with npm run dev and deploy.
import { buildWeb } from "../../scripts/build-web.mjs";
// @ts-expect-error: a plain .mjs helper shared with the benchmark scripts.
import { root, startDevServer } from "../../scripts/lib/dev-server.mjs";

/**
 * The web app in a real Chromium (Debian's, driven by playwright-core: nothing downloaded) against the
 * real local API with the demo data (ADR 0041): the journeys a person makes, an axe-core check of each
 * screen, and screenshots for the README.
 */
const chromium = inject("chromium");
const DEMO = { email: "warga1.rt01@warga.test", password: "warga-demo-2026" };
const SCREENSHOTS = join(root, "docs", "screenshots");
const axeSource = readFileSync(createRequire(import.meta.url).resolve("axe-core/axe.min.js"), "utf8");

/**
 * The journeys' own local state, kept between runs: migrating every database through wrangler is the
 * slow part (minutes on a busy 2-core machine), and db-migrate skips it while no migration changed. The
 * demo seed is idempotent and runs every time. Never `npm run dev`'s state, which may be open.
 */
const STATE = join(root, ".wrangler", "web-e2e-state");
// Migrations and seed on a fresh clone, then wrangler dev's start: far past the project's 120 s default.
const SETUP_MS = 600_000;

let server: { url: string; stop: () => Promise<void> } | undefined;
let browser: Browser | undefined;

beforeAll(async () => {
  if (!chromium.ready) {
    return;
  }
  // The app as its sources are now, and the state with migrations and the demo data.
  await buildWeb();
  process.env.WARGA_STATE_DIR = STATE;
  const { migrateAll } = await import("../../scripts/db-migrate.mjs");
  const { seed } = await import("../../scripts/seed-dev.mjs");
  const { slotCountFromConfig } = await import("../../scripts/tenant-slots.mjs");
  // The demo seed puts its three communities in the first three slots of a fresh state.
  await migrateAll({
    quiet: true,
    only: ["PLATFORM_DB", "TENANT_DB_01", "TENANT_DB_02", "TENANT_DB_03", "NOTIFY_DB"],
  });
  await seed({ slots: slotCountFromConfig() });
  // Both started together; each is kept as soon as it is up, so afterAll stops it even if the other failed.
  await Promise.all([
    startDevServer({ persistTo: STATE, vars: { LOG_LEVEL: "warn" } }).then((s: typeof server) => {
      server = s;
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
  it(
    "a resident signs in, sees home with their data, reloads and stays signed in, holds no readable token, signs out",
    async (t) => {
      t.skip(!chromium.ready, chromium.reason);
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
      t.skip(!chromium.ready, chromium.reason);
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
