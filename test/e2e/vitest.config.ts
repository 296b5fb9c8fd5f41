import { fileURLToPath } from "node:url";
import { defineConfig } from "vitest/config";

/** Tests that drive the running Worker from outside (wrangler dev + headless Chromium), in Node. */
export default defineConfig({
  test: {
    name: "e2e",
    root: fileURLToPath(new URL("../..", import.meta.url)),
    include: ["test/e2e/**/*.e2e.test.ts"],
    environment: "node",
    testTimeout: 120_000,
    hookTimeout: 120_000,
  },
});
