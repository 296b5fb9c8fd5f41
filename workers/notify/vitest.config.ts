import path from "node:path";
import { cloudflareTest, readD1Migrations } from "@cloudflare/vitest-plugin";
import { defineConfig } from "vitest/config";

const root = import.meta.dirname;

export default defineConfig(async () => {
  const migrations = await readD1Migrations(path.join(root, "migrations"));
  return {
    root,
    plugins: [
      cloudflareTest({
        wrangler: { configPath: path.join(root, "wrangler.toml") },
        miniflare: {
          bindings: {
            TEST_MIGRATIONS: migrations,
            INTERNAL_API_KEY: "test-internal-key",
            ENVIRONMENT: "test",
            EMAIL_PROVIDER: "http",
            EMAIL_HTTP_API_KEY: "re_test_key",
            WHATSAPP_GATEWAY_TOKEN: "gateway-test-token",
            // wrangler reads workers/notify/.dev.vars into the bindings, and `npm run dev` writes a local
            // VAPID pair there: blanked, so the tests see Web Push off (as on a fresh clone) whoever ran
            // `npm run dev` in this checkout before. Tests that need keys set them on their own env.
            VAPID_PUBLIC_KEY: "",
            VAPID_PRIVATE_KEY: "",
          },
          // Tests drive the consumer themselves (createMessageBatch), so producers write to a queue nobody
          // consumes; otherwise the real local consumer would race the test's own deliveries.
          queueProducers: { NOTIFY_QUEUE: { queueName: "warga-notify-test-sink" } },
        },
      }),
    ],
    test: {
      name: "notify",
      // As the api project's: a limit for a machine busy with other files, never a wait.
      testTimeout: 20_000,
      // Three files at a time, the same in every project (vitest.config.ts).
      maxWorkers: 3,
      include: ["test/**/*.test.ts"],
      setupFiles: ["./test/setup.ts"],
      // One runtime for every file; test/setup.ts gives each file an empty database.
      isolate: false,
    },
  };
});
