import type { Page } from "playwright-core";

/**
 * What on the page runs past the right edge of the screen (issue 47's review: a community row's
 * "slug · type · status" line at 360 px): each visible element of the page's main region whose box
 * ends beyond the viewport, unless a box between it and main scrolls or clips sideways (a wide table in
 * its scrolling wrapper, the operator's menu row that scrolls). Named by tag, class and its first words,
 * so a failure says what to look at. Empty when nothing overflows.
 */
export async function overflowing(page: Page): Promise<string[]> {
  return page.evaluate(() => {
    const width = document.documentElement.clientWidth;
    const main = document.querySelector("main") ?? document.body;
    const contained = (el: Element) => {
      for (let up = el.parentElement; up && up !== main; up = up.parentElement) {
        const x = getComputedStyle(up).overflowX;
        if (x === "auto" || x === "scroll" || x === "hidden" || x === "clip") {
          return true;
        }
      }
      return false;
    };
    const out: string[] = [];
    for (const el of main.querySelectorAll("*")) {
      const box = el.getBoundingClientRect();
      if (box.width === 0 || box.height === 0 || box.right <= width + 1 || contained(el)) {
        continue;
      }
      const words = (el.textContent ?? "").trim().replace(/\s+/g, " ").slice(0, 40);
      out.push(
        `${el.tagName.toLowerCase()}.${[...el.classList].join(".")} "${words}" ends at ${Math.round(box.right)} > ${width}`,
      );
    }
    return out;
  });
}
