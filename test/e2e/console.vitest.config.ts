import { fileURLToPath } from "node:url";
import { defineConfig } from "vitest/config";
import e2e from "./vitest.config.ts";

// Browser Rendering (letter PDFs): miniflare launches the Chrome wrapper scripts/setup-chromium.sh put in
// the project's own cache. `npm test` points there in test/vitest.config.ts; this script does not load
// that file, so without this the PDF routes answer 503 `pdf_renderer_unavailable` in the journeys.
process.env.XDG_CACHE_HOME = fileURLToPath(new URL("../../.cache", import.meta.url));

/**
 * The committee's console journeys (console.browser.test.ts), apart from `npm test`'s projects: run by
 * `npm run test:console` and by .ci/run after `npm test`. The e2e project's settings otherwise.
 */
export default defineConfig({
  ...e2e,
  test: { ...e2e.test, name: "console", include: ["test/e2e/console.browser.test.ts"] },
});
