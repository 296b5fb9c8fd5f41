import { fileURLToPath } from "node:url";
import { defineConfig } from "vitest/config";
import e2e from "./vitest.config.ts";

// Browser Rendering (letter PDFs): miniflare launches the Chrome wrapper scripts/setup-chromium.sh put in
// the project's own cache. `npm test` points there in test/vitest.config.ts; this script does not load
// that file, so without this the PDF routes answer 503 `pdf_renderer_unavailable` in the journeys.
process.env.XDG_CACHE_HOME = fileURLToPath(new URL("../../.cache", import.meta.url));

/**
 * The browser journeys (`*.browser.test.ts`: the web app's, web.browser.test.ts, and the committee's and
 * operator's consoles, console.browser.test.ts), apart from `npm test`'s projects: run by
 * `npm run test:browser` (`test:console` runs the consoles' alone) and by .ci/run after `npm test`. Each
 * file has its own server and Chromium, and the two run side by side. The e2e project's settings
 * otherwise.
 */
export default defineConfig({
  ...e2e,
  test: {
    ...e2e.test,
    name: "browser",
    include: ["test/e2e/*.browser.test.ts"],
    // The web app is built once, before the files start (they share public/).
    globalSetup: ["test/e2e/build-web.global.ts"],
  },
});
