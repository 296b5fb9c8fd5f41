import { afterAll, beforeAll, describe, expect, inject, it } from "vitest";
// @ts-expect-error: a plain .mjs helper shared with the benchmark scripts.
import { startDevServer } from "../../scripts/lib/dev-server.mjs";
import { type Browser, launchBrowser } from "./cdp";

const chromium = inject("chromium");
let server: { url: string; stop: () => Promise<void> };
let browser: Browser | undefined;

interface Operation {
  method: string;
  path: string;
  tag: string;
  operationId: string;
}

/** The document's operations in Swagger UI's order: grouped by first tag, tags in order of appearance. */
async function documentedOperations(): Promise<Operation[]> {
  const spec = (await (await fetch(`${server.url}/openapi.json`)).json()) as {
    paths: Record<string, Record<string, { tags?: string[]; operationId: string }>>;
  };
  const byTag = new Map<string, Operation[]>();
  for (const [path, item] of Object.entries(spec.paths)) {
    for (const [method, op] of Object.entries(item)) {
      const tag = op.tags?.[0] ?? "default";
      byTag.set(tag, [...(byTag.get(tag) ?? []), { method, path, tag, operationId: op.operationId }]);
    }
  }
  return [...byTag.values()].flat();
}

beforeAll(async () => {
  // Starting wrangler dev is the slow part; there is no point without a browser to drive against it.
  if (chromium.ready) {
    [server, browser] = await Promise.all([startDevServer(), launchBrowser()]);
  }
});
afterAll(async () => {
  await browser?.close();
  await server?.stop();
});

/**
 * Swagger UI (swagger-ui-dist 5.33+) virtualises the operations list once tags plus operations reach
 * 150: only the rows near the viewport are in the DOM, and more mount as the reader scrolls. A dump
 * of the first screen therefore shows the first few operations only (with this document: Health and
 * two Auth operations), so these tests read the page the way a person does: scrolling, and following
 * a deep link.
 */
// Loading Swagger UI with the whole document takes 10–30 s in headless Chromium on a busy shared machine,
// and the walk below scrolls some forty screens: more than the project's 120 s default, some days.
const BROWSER_TEST_MS = 240_000;

describe("/swagger in a browser with no internet access", () => {
  it(
    "renders every tag and operation of /openapi.json as the reader scrolls down",
    async (t) => {
      t.skip(!chromium.ready, chromium.reason);
      const page = browser as Browser;
      const operations = await documentedOperations();
      await page.open(`${server.url}/swagger`);
      await page.waitFor("document.querySelector('.opblock')");
      expect(await page.evaluate<string>("document.querySelector('.info .title')?.textContent")).toContain(
        "Warga API",
      );

      const seen = new Set<string>();
      const tags = new Set<string>();
      for (let step = 0; ; step++) {
        expect(step, "the walk reaches the end of the page").toBeLessThan(500);
        // Two animation frames let the virtualiser measure the new rows and mount what comes into view.
        const view = await page.evaluate<{ ops: string[]; tags: string[]; bottom: boolean; next: number }>(`
        (async () => {
          await new Promise((r) => requestAnimationFrame(() => requestAnimationFrame(r)));
          return {
            ops: [...document.querySelectorAll(".opblock")].map(
              (el) => el.querySelector(".opblock-summary-method")?.textContent.toLowerCase() + " " +
                el.querySelector("[data-path]")?.getAttribute("data-path"),
            ),
            tags: [...document.querySelectorAll("h3.opblock-tag")].map((el) => el.dataset.tag),
            bottom: scrollY + innerHeight >= document.documentElement.scrollHeight - 1,
            next: scrollY + Math.floor(innerHeight * 0.8),
          };
        })()`);
        for (const op of view.ops) {
          seen.add(op);
        }
        for (const tag of view.tags) {
          tags.add(tag);
        }
        if (view.bottom) {
          break;
        }
        await page.evaluate(`window.scrollTo(0, ${view.next})`);
      }

      const expected = operations.map((op) => `${op.method} ${op.path}`);
      expect([...seen].sort()).toEqual([...expected].sort());
      expect(seen.size, "operation blocks rendered = operations documented").toBe(operations.length);
      expect([...tags].sort()).toEqual([...new Set(operations.map((op) => op.tag))].sort());
      expect(page.errors, "no exception or console error in the page").toEqual([]);
    },
    BROWSER_TEST_MS,
  );

  it(
    "lets the reader reach an operation far down the list: by deep link, and with the filter box",
    async (t) => {
      t.skip(!chromium.ready, chromium.reason);
      const page = browser as Browser;
      const operations = await documentedOperations();
      const last = operations.at(-1) as Operation;
      await page.open(
        `${server.url}/swagger#/${encodeURIComponent(last.tag)}/${encodeURIComponent(last.operationId)}`,
      );
      await page.waitFor("document.querySelector('.opblock.is-open')");
      // It opens once mounted; the scroll that brings it into view may take a few more frames.
      await page.waitFor(
        "document.querySelector('.opblock.is-open').getBoundingClientRect().top < innerHeight",
      );
      const opened = await page.evaluate<{ path: string; method: string; inView: boolean }[]>(`
      [...document.querySelectorAll(".opblock.is-open")].map((el) => {
        const box = el.getBoundingClientRect();
        return {
          path: el.querySelector("[data-path]")?.getAttribute("data-path"),
          method: el.querySelector(".opblock-summary-method")?.textContent.toLowerCase(),
          inView: box.top < innerHeight && box.bottom > 0,
        };
      })`);
      expect(opened).toEqual([{ path: last.path, method: last.method, inView: true }]);
      // Swagger UI reads any `_` in a deep link as the old escape for a space and says so on the
      // console, though it also tries the link as written. chanfana's operationIds (`post_ErasePerson`)
      // all contained one; ours (`erasePerson`, issue 42) do not, but a tag still may, so the notice stays allowed.
      const legacyEscape = /^Deprecated: escaping deep link whitespace with `_`/;
      expect(
        page.errors.filter((e) => !legacyEscape.test(e)),
        "no exception or console error in the page",
      ).toEqual([]);

      // The filter box (`filter: true` in init.js) stands in for the browser's find, which cannot see
      // rows that are not mounted: it keeps the tags whose name, or operations whose path, contain it.
      const phrase = "corrections";
      const matching = operations.filter(
        (op) => op.tag.toLowerCase().includes(phrase) || op.path.toLowerCase().includes(phrase),
      );
      expect(matching.length).toBeGreaterThan(1);
      await page.type(".operation-filter-input", phrase);
      const shown = `[...document.querySelectorAll(".opblock")].map((el) =>
      el.querySelector(".opblock-summary-method")?.textContent.toLowerCase() + " " +
        el.querySelector("[data-path]")?.getAttribute("data-path"))`;
      await page.waitFor(`${shown}.length === ${matching.length}`);
      expect((await page.evaluate<string[]>(shown)).sort()).toEqual(
        matching.map((op) => `${op.method} ${op.path}`).sort(),
      );
    },
    BROWSER_TEST_MS,
  );
});
