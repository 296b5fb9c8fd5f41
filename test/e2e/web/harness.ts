import { execFileSync } from "node:child_process";
import { readFileSync } from "node:fs";
import { createRequire } from "node:module";
import { join } from "node:path";
import { type Browser, type BrowserContext, type Page, chromium as playwright } from "playwright-core";
// @ts-expect-error: a plain .mjs helper shared with npm run dev and deploy.
import { buildWeb } from "../../../scripts/build-web.mjs";
// @ts-expect-error: a plain .mjs helper shared with the benchmark scripts.
import { root } from "../../../scripts/lib/dev-server.mjs";
import { type E2eServer, type OutboxMessage, startSeededServer } from "../server";

/**
 * What every browser journey of the web app shares (test/e2e/web.browser.test.ts runs them all against one
 * server and one Chromium): the app built from its sources, the deploy bundle on workerd over fresh
 * databases with the demo seed (test/e2e/server.ts), Debian's Chromium driven by playwright-core
 * (nothing downloaded), axe-core, and where screenshots go.
 */
export const DEMO_PASSWORD = "warga-demo-2026";

/** A journey: one thing a person does with the app, start to end. */
export interface Journey {
  name: string;
  run: (app: WebApp) => Promise<void>;
}

export interface WebApp {
  url: string;
  browser: Browser;
  server: E2eServer;
  /** A fresh browser profile (no cookies), 360 × 640 unless told; closed after the journey. */
  context: (viewport?: Viewport, opts?: ProfileOptions) => Promise<BrowserContext>;
  /** A page of a fresh context; an uncaught error in it fails the journey. */
  page: (viewport?: Viewport, opts?: ProfileOptions) => Promise<Page>;
  /** Signs in on the sign-in screen and waits for home. */
  signIn: (page: Page, email: string, password?: string) => Promise<void>;
  /** axe-core's serious and critical findings on the page as it is now. */
  seriousViolations: (page: Page) => Promise<string[]>;
  /** Waits until no loading placeholder is left on the page. */
  settled: (page: Page) => Promise<void>;
  /** Saves a full-page screenshot as `name`.png when WARGA_SCREENSHOTS asks for them (see SCREENSHOTS). */
  screenshot: (page: Page, name: string) => Promise<void>;
  /** The API as `email` (bearer contract, as another client would call it): for the other side of a journey. */
  apiAs: (email: string, password?: string) => Promise<ApiCaller>;
  /** Everything the Worker has sent through the notification service so far, oldest first. */
  outbox: () => OutboxMessage[];
  /**
   * The newest link to `path` (e.g. `/join`) in what was sent to `to` after the first `since` messages
   * (`outbox().length` before the action), waiting for it to be sent (the API sends some emails after
   * it has answered). Throws when none arrives within a few seconds.
   */
  linkSentTo: (to: string, path: string, since?: number) => Promise<string>;
}

export type Viewport = { width: number; height: number };
export interface ProfileOptions {
  /**
   * "block" for a journey that answers some API route in the browser itself (page.route): the app's
   * service worker would otherwise fetch it past the interception (Playwright does not see its requests).
   */
  serviceWorkers?: "allow" | "block";
}

export type ApiCaller = (method: string, path: string, body?: unknown) => Promise<Response>;

// Screenshots are taken on request: WARGA_SCREENSHOTS=1 into .cache/screenshots (to look at the screens),
// WARGA_SCREENSHOTS=docs into docs/screenshots (the README's). An ordinary run takes none: 32 full-page
// captures were seconds of every `npm test`, and it leaves the work tree as it found it.
const SCREENSHOTS =
  process.env.WARGA_SCREENSHOTS === "docs"
    ? join(root, "docs", "screenshots")
    : process.env.WARGA_SCREENSHOTS
      ? join(root, ".cache", "screenshots")
      : undefined;
/**
 * How long one step (a wait for an element, a navigation) may take before the journey fails. Playwright's
 * 30 s default is minutes too short on a 2-core machine that is also running other tests (Swagger UI's
 * first render timed out there); the journey's own time limit (web.browser.test.ts) still bounds the whole.
 */
const STEP_MS = 120_000;
const axeSource = readFileSync(createRequire(import.meta.url).resolve("axe-core/axe.min.js"), "utf8");

/** Every string in a message's JSON body (its address, its template data, its text). */
function textsOf(value: unknown): string[] {
  if (typeof value === "string") {
    return [value];
  }
  if (value && typeof value === "object") {
    return Object.values(value).flatMap(textsOf);
  }
  return [];
}

/** The links with a `token` to `path` (e.g. `/join`) in a text. */
function linksTo(text: string, path: string): string[] {
  return [...text.matchAll(/https?:\/\/[^\s"'<>]+/g)]
    .map((m) => m[0])
    .filter((link) => {
      const u = new URL(link);
      return u.pathname === path && u.searchParams.has("token");
    });
}

/** One journey's view of the app: its browser profiles and its pages' errors are its own. */
export interface JourneyScope {
  app: WebApp;
  /** Closes the profiles the journey opened; answers the uncaught errors its pages threw. */
  end: () => Promise<string[]>;
}

/** Starts everything; the answer is the app, or why this machine cannot run it (a reason to skip). */
export async function startWebApp(chromiumReady: boolean): Promise<{
  /** A scope for the next journey (journeys may run side by side: web.browser.test.ts). */
  journey?: () => JourneyScope;
  unavailable?: string;
  stop: () => Promise<void>;
}> {
  let server: E2eServer | undefined;
  let browser: Browser | undefined;
  let unavailable: string | undefined;
  const open = new Set<JourneyScope>();
  const stop = async () => {
    for (const scope of open) {
      await scope.end();
    }
    await browser?.close();
    await server?.stop();
  };
  // The app as its sources are now, built before the server lists public/: once for the whole run when
  // the browser config's global setup did it (the journey files run side by side and share public/).
  if (process.env.WARGA_WEB_BUILT !== "1") {
    await buildWeb();
  }
  // Both started together; each is kept as soon as it is up, so stop() ends it even if the other failed.
  await Promise.all([
    startSeededServer({ assets: true, browser: chromiumReady, outbox: true }).then((started) => {
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
  if (unavailable || !server || !browser) {
    return { unavailable: unavailable ?? "the browser did not start", stop };
  }
  const started = server;
  const b = browser;
  const journey = (): JourneyScope => {
    const contexts = new Set<BrowserContext>();
    const pageErrors: string[] = [];
    const scope: JourneyScope = {
      app: webApp(started, b, contexts, pageErrors),
      end: async () => {
        open.delete(scope);
        for (const c of contexts) {
          await c.close().catch(() => undefined);
        }
        contexts.clear();
        return pageErrors.splice(0);
      },
    };
    open.add(scope);
    return scope;
  };
  return { journey, stop };
}

/** The harness as one journey sees it, recording its profiles and its pages' errors in the sets given. */
function webApp(server: E2eServer, b: Browser, contexts: Set<BrowserContext>, pageErrors: string[]): WebApp {
  const url = server.url;
  const started = server;
  const context = async (viewport: Viewport = { width: 360, height: 640 }, opts: ProfileOptions = {}) => {
    const c = await b.newContext({ viewport, serviceWorkers: opts.serviceWorkers ?? "allow" });
    c.setDefaultTimeout(STEP_MS);
    c.setDefaultNavigationTimeout(STEP_MS);
    contexts.add(c);
    return c;
  };
  const app: WebApp = {
    url,
    browser: b,
    server,
    context,
    page: async (viewport, opts) => {
      const page = await (await context(viewport, opts)).newPage();
      page.on("pageerror", (e) => pageErrors.push(e.message));
      return page;
    },
    signIn: async (page, email, password = DEMO_PASSWORD) => {
      if (!new URL(page.url()).pathname.startsWith("/login")) {
        await page.goto(`${url}/login`);
      }
      await page.getByLabel("Email").fill(email);
      await page.getByLabel("Kata sandi").fill(password);
      await page.getByRole("button", { name: "Masuk", exact: true }).click();
      await page.getByRole("heading", { level: 1, name: /^Halo, / }).waitFor();
    },
    seriousViolations: async (page) => {
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
    },
    settled: async (page) => {
      await page.waitForFunction(() => document.querySelectorAll("[role=status] .skeleton").length === 0);
    },
    screenshot: async (page, name) => {
      if (!SCREENSHOTS) {
        return;
      }
      // The whole page; the bottom bar (fixed to the viewport on a phone) drawn once, at the page's end.
      await page.screenshot({
        path: join(SCREENSHOTS, `${name}.png`),
        fullPage: true,
        style: "nav.tabs { position: static !important; }",
      });
    },
    outbox: () => started.outbox(),
    linkSentTo: async (to, path, since = 0) => {
      // Some emails leave after the answer (the API queues them): wait for the next one to arrive, not
      // for the clock; the journey's own time limit bounds the whole.
      for (;;) {
        const arrival = started.nextArrival();
        const links = started
          .outbox()
          .slice(since)
          .map((m) => textsOf(m.body))
          .filter((texts) => texts.includes(to))
          .flatMap((texts) => texts.flatMap((text) => linksTo(text, path)));
        if (links.length > 0) {
          return links[links.length - 1] as string;
        }
        await arrival;
      }
    },
    apiAs: async (email, password = DEMO_PASSWORD) => {
      const res = await fetch(`${url}/api/auth/login`, {
        method: "POST",
        headers: { "Content-Type": "application/json" },
        body: JSON.stringify({ email, password }),
      });
      if (!res.ok) {
        throw new Error(`sign-in as ${email}: ${res.status} ${await res.text()}`);
      }
      const { accessToken } = (await res.json()) as { accessToken: string };
      return (method, path, body) =>
        fetch(`${url}${path}`, {
          method,
          headers: {
            Authorization: `Bearer ${accessToken}`,
            ...(body === undefined ? {} : { "Content-Type": "application/json" }),
            ...(method === "POST" ? { "Idempotency-Key": crypto.randomUUID() } : {}),
          },
          body: body === undefined ? undefined : JSON.stringify(body),
        });
    },
  };
  return app;
}
