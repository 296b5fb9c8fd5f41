import { fileURLToPath } from "node:url";
import { defineConfig } from "vitest/config";

const root = fileURLToPath(new URL("../..", import.meta.url));

/** The project's Node scripts (deploy plan and apply against a fake wrangler), in Node: no workerd. */
export default defineConfig({
  test: {
    name: "scripts",
    // Three files at a time, the same in every project (vitest.config.ts).
    maxWorkers: 3,
    // One Node process per slot for every file: no spawn and module load per file (about 3 s each on
    // this machine). The files share no state: they pass in any order (`--sequence.shuffle.files`).
    isolate: false,
    root,
    include: ["test/scripts/**/*.test.mjs"],
    environment: "node",
    // Some of these do a run's worth of work in one test (the seed over every database, a lint of the whole
    // /openapi.json): seconds on a quiet machine, past vitest's default 5 s on a busy one.
    testTimeout: 30_000,
  },
});
