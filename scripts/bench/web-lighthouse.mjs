// Lighthouse for `npm run bench -- web` (issue 43: performance ≥ 95, accessibility 100, best practices
// ≥ 95 on sign-in, home, iuran and surat; issue 46: performance ≥ 90 and accessibility 100 on the
// console's dashboard, registry list and letter queue, signed in as RT 01's head; issue 47: performance
// ≥ 90 and accessibility 100 on the operator's communities list and support inbox, signed in as the
// platform's operator, in Lighthouse's desktop profile). The app as deployed (the deploy bundle on workerd
// with the static assets and the demo seed, as the browser journeys run it), the machine's Chromium, and
// Lighthouse's mobile profile (desktop for the operator's rows) with its default (simulated) throttling.
// Figures, not a test.
import { execFileSync } from "node:child_process";
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import * as chromeLauncher from "chrome-launcher";
import lighthouse from "lighthouse";
import desktopConfig from "lighthouse/core/config/desktop-config.js";
import { chromium as playwright } from "playwright-core";
import { root } from "../lib/dev-server.mjs";
import { startWorkerd } from "../lib/workerd.mjs";
import { declaredSlots, migrateAndSeed } from "./d1.mjs";

/** Where each page's Lighthouse report is written (JSON; open it in the Lighthouse viewer or read it). */
const REPORTS = join(root, ".cache", "lighthouse");
const TARGETS = { performance: 95, accessibility: 100, "best-practices": 95 };
const CONSOLE_TARGETS = { performance: 90, accessibility: 100, "best-practices": 95 };
const RESIDENT = "warga1.rt01@warga.test";
const HEAD = "admin.rt01@warga.test";
const OPERATOR = "operator@warga.test";
const PASSWORD = "warga-demo-2026";
/** Signed out first (a signed-in person is sent home from /login), then the resident's screens, then the console's. */
const PAGES = [
  { name: "sign-in", path: "/login", as: null, targets: TARGETS },
  { name: "home", path: "/", as: RESIDENT, targets: TARGETS },
  { name: "iuran", path: "/iuran", as: RESIDENT, targets: TARGETS },
  { name: "surat", path: "/surat", as: RESIDENT, targets: TARGETS },
  { name: "console", path: "/pengurus", as: HEAD, targets: CONSOLE_TARGETS },
  { name: "registry", path: "/pengurus/warga", as: HEAD, targets: CONSOLE_TARGETS },
  { name: "letter desk", path: "/pengurus/surat", as: HEAD, targets: CONSOLE_TARGETS },
  // The operator works at a desk (issue 47, item 5): Lighthouse's desktop profile.
  {
    name: "communities",
    path: "/platform/communities",
    as: OPERATOR,
    targets: CONSOLE_TARGETS,
    profile: "desktop",
  },
  {
    name: "support inbox",
    path: "/platform/support-tickets",
    as: OPERATOR,
    targets: CONSOLE_TARGETS,
    profile: "desktop",
  },
];

/**
 * Lighthouse's default run starts from cleared storage (a first visit); the bench keeps storage only for
 * the refresh cookie (`disableStorageReset`), so before each page it clears the rest as Lighthouse would:
 * the app's service worker and its caches. A page measured under the worker a previous page installed
 * would be a repeat visit, which is not what the targets are about (ADR 0041 gives both figures).
 */
async function forgetServiceWorker(port, url) {
  const browser = await playwright.connectOverCDP(`http://127.0.0.1:${port}`);
  try {
    const page = await browser.contexts()[0].newPage();
    await page.goto(`${url}/manifest.webmanifest`);
    await page.evaluate(async () => {
      for (const registration of await navigator.serviceWorker.getRegistrations()) {
        await registration.unregister();
      }
      for (const name of await caches.keys()) {
        await caches.delete(name);
      }
    });
    await page.close();
  } finally {
    await browser.close();
  }
}

/**
 * Signs in as `email` on the sign-in screen in Chromium's default profile (after dropping the cookie of
 * whoever was signed in before): the refresh cookie keeps the session.
 */
async function signIn(port, url, email) {
  const browser = await playwright.connectOverCDP(`http://127.0.0.1:${port}`);
  try {
    await browser.contexts()[0].clearCookies();
    const page = await browser.contexts()[0].newPage();
    await page.goto(`${url}/login`);
    await page.getByLabel("Email").fill(email);
    await page.getByLabel("Kata sandi").fill(PASSWORD);
    await page.getByRole("button", { name: "Masuk", exact: true }).click();
    await page.getByRole("heading", { level: 1, name: /^Halo, / }).waitFor();
    await page.close();
  } finally {
    // Only the CDP connection ends; the browser (launched by chrome-launcher) stays up.
    await browser.close();
  }
}

function failingAudits(lhr, category) {
  return lhr.categories[category].auditRefs
    .filter((ref) => ref.weight > 0)
    .map((ref) => lhr.audits[ref.id])
    .filter((audit) => audit.score !== null && audit.score < 1)
    .map((audit) => `${audit.title} (${Math.round(audit.score * 100)})`);
}

/**
 * Runtime errors in which Lighthouse failed to record the page load's trace, not in which the page failed
 * (its message for them ends "Please run Lighthouse again"). Seen once in a CI run's smoke pass on
 * `/iuran` (NO_NAVSTART) with every other page and the same page in other runs recorded. Such a run is
 * recorded again, up to RECORDING_ATTEMPTS times in all; any other runtime error fails the suite at once.
 */
const RECORDING_FAILED = new Set(["NO_NAVSTART", "NO_TRACING_STARTED"]);
const RECORDING_ATTEMPTS = 3;

export async function runLighthouse() {
  const persistTo = mkdtempSync(join(tmpdir(), "warga-lighthouse-"));
  const server = await startWorkerd({ persistTo, assets: true, vars: { LOG_LEVEL: "warn" } });
  let chrome;
  try {
    await migrateAndSeed(server.mf, declaredSlots());
    chrome = await chromeLauncher.launch({
      chromePath: execFileSync("sh", ["-c", "command -v chromium"], { encoding: "utf8" }).trim(),
      chromeFlags: [
        "--headless=new",
        "--no-sandbox",
        // Nothing outside this machine: every host but loopback resolves nowhere.
        "--host-resolver-rules=MAP * ~NOTFOUND, EXCLUDE 127.0.0.1",
      ],
    });
    const rows = [];
    let signedInAs = null;
    for (const page of PAGES) {
      if (page.as && page.as !== signedInAs) {
        await signIn(chrome.port, server.url, page.as);
        signedInAs = page.as;
      }
      let lhr;
      for (let attempt = 1; ; attempt++) {
        if (process.env.WARGA_LIGHTHOUSE_WARM !== "1") {
          await forgetServiceWorker(chrome.port, server.url);
        }
        const result = await lighthouse(
          `${server.url}${page.path}`,
          {
            port: chrome.port,
            output: "json",
            logLevel: "error",
            onlyCategories: Object.keys(page.targets),
            // Keeps the refresh cookie: Lighthouse would otherwise clear the origin's storage and sign out.
            disableStorageReset: true,
          },
          page.profile === "desktop" ? desktopConfig : undefined,
        );
        lhr = result?.lhr;
        if (!lhr) {
          throw new Error(`Lighthouse gave no result for ${page.path}`);
        }
        const error = lhr.runtimeError;
        if (error && RECORDING_FAILED.has(error.code) && attempt < RECORDING_ATTEMPTS) {
          // Lighthouse's own advice for these ("Please run Lighthouse again"): the trace, not the page.
          console.log(`Lighthouse on ${page.path}: ${error.code}, recording again (attempt ${attempt + 1})`);
          continue;
        }
        if (error) {
          throw new Error(`Lighthouse on ${page.path}: ${error.code} ${error.message}`);
        }
        break;
      }
      // Each page's whole report, to read what a figure is made of (long tasks, requests, audits).
      mkdirSync(REPORTS, { recursive: true });
      writeFileSync(join(REPORTS, `${page.name}.json`), JSON.stringify(lhr));
      const finalPath = new URL(lhr.finalDisplayedUrl).pathname;
      rows.push({ page, lhr, finalPath });
    }
    return rows;
  } finally {
    await chrome?.kill();
    await server.stop();
    rmSync(persistTo, { recursive: true, force: true });
  }
}

export function printLighthouse(rows) {
  const score = (lhr, c) => Math.round((lhr.categories[c].score ?? 0) * 100);
  console.log(
    `\nLighthouse 12, mobile profile (desktop where the row says so), default throttling (simulated), ${process.env.WARGA_LIGHTHOUSE_WARM === "1" ? "repeat visits under the service worker (WARGA_LIGHTHOUSE_WARM=1)" : "first visits (no service worker yet)"}; targets: performance ≥ 95 (console pages ≥ 90), accessibility 100, best practices ≥ 95`,
  );
  console.log(
    `${"page".padEnd(26)}${"performance".padStart(13)}${"accessibility".padStart(15)}${"best pract.".padStart(13)}  result`,
  );
  let failed = 0;
  const notes = [];
  for (const { page, lhr, finalPath } of rows) {
    // Performance is measured, not judged (issue 49, item 6): Lighthouse's simulated throttling scales
    // the CPU time it observed, so a busy machine lowers the score of the same page; a bare page's
    // score in the same run would be 100 on any load and so no floor for it. Its target is printed.
    const under = Object.entries(page.targets).filter(
      ([c, target]) => c !== "performance" && score(lhr, c) < target,
    );
    const slow = score(lhr, "performance") < page.targets.performance;
    failed += under.length > 0 ? 1 : 0;
    const name = page.profile === "desktop" ? `${page.name} (desktop)` : page.name;
    const where = finalPath === page.path ? name : `${name} (ended at ${finalPath})`;
    console.log(
      `${where.padEnd(26)}${`${score(lhr, "performance")}${slow ? "*" : ""}`.padStart(13)}${String(score(lhr, "accessibility")).padStart(15)}${String(score(lhr, "best-practices")).padStart(13)}  ${under.length ? "FAIL" : "PASS"}`,
    );
    for (const [category] of under) {
      notes.push(
        `  ${page.name}, ${category}: ${failingAudits(lhr, category).join("; ") || "(no single audit)"}`,
      );
    }
  }
  if (notes.length > 0) {
    console.log("under target:");
    console.log(notes.join("\n"));
  }
  console.log(
    "performance: measured, not judged (* under its target on this run): its simulated throttling scales the CPU time\n" +
      "observed, so a loaded machine lowers it; accessibility and best practices are not times and are judged as they are.",
  );
  console.log(`${rows.length - failed} pages met every judged target, ${failed} did not`);
}
