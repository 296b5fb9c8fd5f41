import { defineConfig } from "vitest/config";
import e2e from "./vitest.config.ts";

/**
 * The committee's console journeys (console.browser.test.ts), apart from `npm test`'s projects: run by
 * `npm run test:console` and by .ci/run after `npm test`. The e2e project's settings otherwise.
 */
export default defineConfig({
  ...e2e,
  test: { ...e2e.test, name: "console", include: ["test/e2e/console.browser.test.ts"] },
});
