import { cloudflareTest } from "@cloudflare/vitest-plugin";
import { defineConfig } from "vitest/config";
import { createFakeApi } from "./test/fake-api.ts";
import { TEST_INTERNAL_KEY } from "./test/fake-api-shared.ts";

// Standalone (`npx vitest run --config workers/ticket-mail/vitest.config.ts`) and as a root
// project alike: root pins test discovery and relative paths to this folder.
export default defineConfig({
  root: import.meta.dirname,
  plugins: [
    cloudflareTest({
      wrangler: { configPath: "./wrangler.toml" },
      miniflare: {
        bindings: { INTERNAL_API_KEY: TEST_INTERNAL_KEY },
        serviceBindings: { API: createFakeApi() },
      },
    }),
  ],
  test: {
    name: "ticket-mail",
    // As the api project's: a limit for a machine busy with other files, never a wait.
    testTimeout: 20_000,
    // Three files at a time, the same in every project (vitest.config.ts).
    maxWorkers: 3,
    // One runtime per slot for every file, as the api and notify projects: the files keep no storage
    // between them and pass in any order (`--sequence.shuffle.files`).
    isolate: false,
    include: ["test/**/*.test.ts"],
  },
});
