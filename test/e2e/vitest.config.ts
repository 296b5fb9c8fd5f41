import { fileURLToPath } from "node:url";
import { defineConfig } from "vitest/config";
// @ts-expect-error: a plain .mjs helper shared with the api project.
import { chromiumStatus } from "../../scripts/lib/chromium.mjs";

const root = fileURLToPath(new URL("../..", import.meta.url));
// Provided like the api project's answer, so both skip for the same reason in the same words.
const chromium: { ready: boolean; reason?: string } = chromiumStatus(root);
if (!chromium.ready) {
  console.warn(`e2e: the browser journeys (web app, Swagger) will be skipped: ${chromium.reason}`);
}

/**
 * Tests that drive the running Worker from outside, in Node: the deploy bundle on workerd over seeded
 * databases (test/e2e/server.ts). In `npm test`, the `*.e2e.test.ts` files (the generated client); the
 * browser journeys (`*.browser.test.ts`, headless Chromium) run with these settings from
 * browser.vitest.config.ts (`npm run test:browser`).
 */
export default defineConfig({
  test: {
    name: "e2e",
    // Three files at a time, the same in every project (vitest.config.ts).
    maxWorkers: 3,
    root,
    include: ["test/e2e/**/*.e2e.test.ts"],
    environment: "node",
    provide: { chromium },
    // The web journeys run two at a time (web.browser.test.ts says why).
    maxConcurrency: 2,
    testTimeout: 120_000,
    hookTimeout: 120_000,
    // A journey's expect.poll waits for the page, not for vitest's 1 s default: on a 2-core machine
    // busy with other tests a screen can take longer; the journey's own time limit bounds the whole.
    expect: { poll: { timeout: 60_000 } },
  },
});
