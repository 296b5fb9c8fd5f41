import { defineConfig } from "vitest/config";

/**
 * One vitest run covers every Worker: each has its own project config (its own workerd, bindings and
 * migrations), and CI reads the combined tally.
 */
export default defineConfig({
  test: {
    projects: [
      "./test/vitest.config.ts",
      "./test/e2e/vitest.config.ts",
      "./test/scripts/vitest.config.mjs",
      "./workers/*/vitest.config.ts",
    ],
  },
});
