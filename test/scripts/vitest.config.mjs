import { fileURLToPath } from "node:url";
import { defineConfig } from "vitest/config";

const root = fileURLToPath(new URL("../..", import.meta.url));

/** The project's Node scripts (deploy plan and apply against a fake wrangler), in Node: no workerd. */
export default defineConfig({
  test: {
    name: "scripts",
    // Three files at a time, the same in every project (vitest.config.ts).
    maxWorkers: 3,
    root,
    include: ["test/scripts/**/*.test.mjs"],
    environment: "node",
  },
});
