import puppeteer, { type BrowserWorker } from "@cloudflare/puppeteer";
import type { ServiceEnv } from "../../core/context";
import { Unavailable } from "../../core/errors";
import { log } from "../../core/http/log";

/** Turns a self-contained HTML page into PDF bytes. One real implementation; tests may swap it. */
export interface PdfRenderer {
  render(html: string): Promise<Uint8Array>;
}

export const HOW_TO_ENABLE =
  "The PDF renderer (Browser Rendering) is not available. Locally it runs Debian's Chromium: run " +
  "`npm install` as root (it installs chromium), or `sudo apt-get install chromium` and then " +
  "`bash scripts/setup-chromium.sh`, and restart `npm run dev`.";

/** Browser Rendering through @cloudflare/puppeteer: one browser per render, A4, backgrounds printed. */
export function browserRenderer(binding: BrowserWorker | undefined): PdfRenderer {
  return {
    async render(html) {
      if (!binding) {
        throw new Unavailable("pdf_renderer_unavailable", HOW_TO_ENABLE);
      }
      let browser: Awaited<ReturnType<typeof puppeteer.launch>>;
      try {
        browser = await puppeteer.launch(binding);
      } catch (error) {
        // Locally this is a missing Chrome (miniflare cannot download one here); deployed, a quota.
        log("warn", "pdf_renderer_launch_failed", { error: String(error) });
        throw new Unavailable("pdf_renderer_unavailable", HOW_TO_ENABLE);
      }
      try {
        const page = await browser.newPage();
        // The letter is static HTML with inline images: no script needs to run, none may.
        await page.setJavaScriptEnabled(false);
        await page.setContent(html, { waitUntil: "load" });
        const pdf = await page.pdf({
          format: "a4",
          printBackground: true,
          margin: { top: "18mm", bottom: "18mm", left: "20mm", right: "20mm" },
        });
        return new Uint8Array(pdf);
      } finally {
        await browser.close().catch(() => undefined);
      }
    },
  };
}

/**
 * Where letters and finance reports get their renderer. An object (not a bare function) so a test can replace `create`
 * and exercise the 503 mapping with a browser that fails to launch.
 */
export const pdfRendering = {
  create(env: ServiceEnv): PdfRenderer {
    // Optional at run time: a deployment without the binding answers 503, not a crash.
    return browserRenderer(env.BROWSER as BrowserWorker | undefined);
  },
};
