import { fileURLToPath } from "node:url";
import { cloudflareTest, readD1Migrations } from "@cloudflare/vitest-plugin";
import { defineConfig } from "vitest/config";

const root = fileURLToPath(new URL("..", import.meta.url));

/**
 * Tests create many tenants per file (storage is isolated per file, not per test), so the test
 * runtime declares more tenant slots than wrangler.toml's local eight. The binding map is given whole
 * because miniflare options replace, not merge, the ones read from wrangler.toml.
 */
const TEST_SLOTS = 40;
function d1Databases(): Record<string, string> {
  const dbs: Record<string, string> = { PLATFORM_DB: "warga-platform" };
  for (let n = 1; n <= TEST_SLOTS; n++) {
    const slot = String(n).padStart(2, "0");
    dbs[`TENANT_DB_${slot}`] = `warga-tenant-${slot}`;
  }
  return dbs;
}

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
          d1Databases: d1Databases(),
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
