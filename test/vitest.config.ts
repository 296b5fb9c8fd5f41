import { fileURLToPath } from "node:url";
import { cloudflareTest, readD1Migrations } from "@cloudflare/vitest-plugin";
import { defineConfig } from "vitest/config";

const root = fileURLToPath(new URL("..", import.meta.url));

export default defineConfig(async () => {
  const platformMigrations = await readD1Migrations(`${root}migrations/platform`);
  return {
    plugins: [
      cloudflareTest({
        wrangler: { configPath: `${root}wrangler.toml` },
        miniflare: {
          bindings: {
            ENVIRONMENT: "test",
            JWT_SECRET: "test-jwt-secret-that-is-long-enough-0123456789",
            INTERNAL_API_KEY: "test-internal-key-that-is-long-enough-0123456789",
            PLATFORM_MIGRATIONS: platformMigrations,
          },
          serviceBindings: {
            // Replaced by the real notification Worker once it is wired into the test run.
            NOTIFY: () => new Response(null, { status: 503 }),
          },
        },
      }),
    ],
    test: {
      name: "api",
      root,
      include: ["test/**/*.test.ts"],
      exclude: ["test/e2e/**"],
      setupFiles: ["test/helpers/setup.ts"],
      testTimeout: 20_000,
      // Access-log lines are noise in test output; warnings and errors still show.
      onConsoleLog: (line: string) => !line.startsWith('{"level":"info"'),
    },
  };
});
