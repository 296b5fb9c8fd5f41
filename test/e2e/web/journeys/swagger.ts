import type { Page } from "playwright-core";
import { expect } from "vitest";
import type { Journey, WebApp } from "../harness";

/**
 * /swagger in a browser with no internet access, served as a deploy serves it (the Worker's page, Swagger
 * UI's files from public/). Swagger UI (swagger-ui-dist 5.33+) virtualises the operations list once tags
 * plus operations reach 150: only the rows near the viewport are in the DOM, and more mount as the reader
 * scrolls. A dump of the first screen therefore shows the first few operations only, so these journeys
 * read the page the way a person does: scrolling, and following a deep link.
 */
interface Operation {
  method: string;
  path: string;
  tag: string;
  operationId: string;
}

/** The document's operations in Swagger UI's order: grouped by first tag, tags in order of appearance. */
async function documentedOperations(url: string): Promise<Operation[]> {
  const spec = (await (await fetch(`${url}/openapi.json`)).json()) as {
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

/** A desktop page that records exceptions and console errors (Swagger UI reports its problems there). */
async function swaggerPage(app: WebApp, height = 900): Promise<{ page: Page; errors: string[] }> {
  const page = await (await app.context({ width: 1280, height })).newPage();
  const errors: string[] = [];
  page.on("pageerror", (e) => errors.push(e.message));
  page.on("console", (m) => {
    if (m.type() === "error") {
      errors.push(m.text());
    }
  });
  return { page, errors };
}

const shownOperations = () =>
  [...document.querySelectorAll(".opblock")].map(
    (el) =>
      `${el.querySelector(".opblock-summary-method")?.textContent?.toLowerCase()} ${el.querySelector("[data-path]")?.getAttribute("data-path")}`,
  );

export const swaggerJourneys: Journey[] = [
  {
    name: "/swagger renders every tag and operation of /openapi.json as the reader scrolls down",
    run: async (app) => {
      const operations = await documentedOperations(app.url);
      // A tall window: the walk reads the same rows in a third of the steps (each a re-render).
      const { page, errors } = await swaggerPage(app, 2400);
      await page.goto(`${app.url}/swagger`);
      await page.locator(".opblock").first().waitFor();
      expect(await page.locator(".info .title").textContent()).toContain("Warga API");

      const seen = new Set<string>();
      const tags = new Set<string>();
      for (let step = 0; ; step++) {
        expect(step, "the walk reaches the end of the page").toBeLessThan(500);
        // Two animation frames let the virtualiser measure the new rows and mount what comes into view.
        const view = await page.evaluate(async () => {
          await new Promise((r) => requestAnimationFrame(() => requestAnimationFrame(r)));
          return {
            ops: [...document.querySelectorAll(".opblock")].map(
              (el) =>
                `${el.querySelector(".opblock-summary-method")?.textContent?.toLowerCase()} ${el.querySelector("[data-path]")?.getAttribute("data-path")}`,
            ),
            tags: [...document.querySelectorAll<HTMLElement>("h3.opblock-tag")].map(
              (el) => el.dataset.tag ?? "",
            ),
            bottom: scrollY + innerHeight >= document.documentElement.scrollHeight - 1,
            next: scrollY + Math.floor(innerHeight * 0.8),
          };
        });
        for (const op of view.ops) {
          seen.add(op);
        }
        for (const tag of view.tags) {
          tags.add(tag);
        }
        if (view.bottom) {
          break;
        }
        await page.evaluate((y) => window.scrollTo(0, y), view.next);
      }

      const expected = operations.map((op) => `${op.method} ${op.path}`);
      expect([...seen].sort()).toEqual([...expected].sort());
      expect(seen.size, "operation blocks rendered = operations documented").toBe(operations.length);
      expect([...tags].sort()).toEqual([...new Set(operations.map((op) => op.tag))].sort());
      expect(errors, "no exception or console error in the page").toEqual([]);
    },
  },
  {
    name: "/swagger lets the reader reach an operation far down the list: by deep link, and with the filter box",
    run: async (app) => {
      const operations = await documentedOperations(app.url);
      const last = operations.at(-1) as Operation;
      const { page, errors } = await swaggerPage(app);
      await page.goto(
        `${app.url}/swagger#/${encodeURIComponent(last.tag)}/${encodeURIComponent(last.operationId)}`,
      );
      await page.locator(".opblock.is-open").first().waitFor();
      // It opens once mounted; the scroll that brings it into view may take a few more frames.
      await page.waitForFunction(
        () =>
          (document.querySelector(".opblock.is-open")?.getBoundingClientRect().top ?? innerHeight) <
          innerHeight,
      );
      const opened = await page.evaluate(() =>
        [...document.querySelectorAll(".opblock.is-open")].map((el) => {
          const box = el.getBoundingClientRect();
          return {
            path: el.querySelector("[data-path]")?.getAttribute("data-path"),
            method: el.querySelector(".opblock-summary-method")?.textContent?.toLowerCase(),
            inView: box.top < innerHeight && box.bottom > 0,
          };
        }),
      );
      expect(opened).toEqual([{ path: last.path, method: last.method, inView: true }]);
      // Swagger UI reads any `_` in a deep link as the old escape for a space and says so on the
      // console, though it also tries the link as written. Our operationIds (`erasePerson`, issue 42)
      // contain none, but a tag still may, so the notice stays allowed.
      const legacyEscape = /^Deprecated: escaping deep link whitespace with `_`/;
      expect(
        errors.filter((e) => !legacyEscape.test(e)),
        "no exception or console error in the page",
      ).toEqual([]);

      // The filter box (`filter: true` in init.js) stands in for the browser's find, which cannot see
      // rows that are not mounted: it keeps the tags whose name, or operations whose path, contain it.
      const phrase = "corrections";
      const matching = operations.filter(
        (op) => op.tag.toLowerCase().includes(phrase) || op.path.toLowerCase().includes(phrase),
      );
      expect(matching.length).toBeGreaterThan(1);
      await page.locator(".operation-filter-input").fill(phrase);
      // Waits for the list that matches the phrase itself, not for a count: on a busy machine the list
      // read between the typing and the re-render had the right length once and the wrong rows.
      await expect
        .poll(async () => (await page.evaluate(shownOperations)).sort())
        .toEqual(matching.map((op) => `${op.method} ${op.path}`).sort());
    },
  },
];
