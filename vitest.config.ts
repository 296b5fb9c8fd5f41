import { defineConfig } from "vitest/config";

/**
 * One vitest run covers every Worker: each has its own project config (its own workerd, bindings and
 * migrations), and CI reads the combined tally.
 */
export default defineConfig({
  test: {
    // Projects named by path do not inherit options from here, so each sets `maxWorkers: 2` itself
    // (the same value everywhere: vitest runs every project's files in one pool). vitest's default is
    // cores - 1, one file at a time on a 2-core machine; the tests spend much of their time waiting on
    // workerd (a separate process), so two files at a time keep both cores busy.
    projects: [
      "./test/vitest.config.ts",
      "./test/e2e/vitest.config.ts",
      "./test/scripts/vitest.config.mjs",
      "./web/vitest.config.ts",
      "./workers/*/vitest.config.ts",
    ],
  },
});
