import { defineConfig } from "vitest/config";

/**
 * One vitest run covers every Worker: each has its own project config (its own workerd, bindings and
 * migrations), and CI reads the combined tally.
 */
export default defineConfig({
  test: {
    // vitest's default is one worker per core but one (2 - 1) on a 2-core machine. The tests spend much
    // of their time waiting on workerd (a separate process), so two files at a time keep both cores busy.
    maxWorkers: 2,
    projects: [
      "./test/vitest.config.ts",
      "./test/e2e/vitest.config.ts",
      "./test/scripts/vitest.config.mjs",
      "./workers/*/vitest.config.ts",
    ],
  },
});
