import { fileURLToPath } from "node:url";
import { defineConfig } from "vitest/config";

const root = fileURLToPath(new URL("..", import.meta.url));

/** The web app's unit and component tests, in Node with happy-dom: no workerd, no browser, no network. */
export default defineConfig({
  oxc: { jsx: { runtime: "automatic", importSource: "preact" } },
  test: {
    name: "web",
    // As the api project's: a limit for a machine busy with other files, never a wait.
    testTimeout: 20_000,
    // Three files at a time, the same in every project (vitest.config.ts).
    maxWorkers: 3,
    // One worker per slot, a fresh VM context per file: the app's module state (the session, caches)
    // stays per file, and happy-dom and the imports are not set up again in a new process per file
    // (15 files: 21 s alone before, 13 s after).
    pool: "vmThreads",
    root,
    include: ["web/test/**/*.test.{ts,tsx}"],
    environment: "happy-dom",
  },
});
