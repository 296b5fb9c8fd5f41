import { applyD1Migrations } from "cloudflare:test";
import { env } from "cloudflare:workers";
import { afterAll, vi } from "vitest";

/**
 * One runtime serves every test file of the project (`isolate: false` in vitest.config.ts: a workerd
 * start per file was most of this project's time), so each file starts from an empty delivery log: every
 * table is dropped and the migrations applied again before it.
 */
const tables = await env.NOTIFY_DB.prepare(
  "SELECT name FROM sqlite_master WHERE type = 'table' AND name NOT LIKE 'sqlite_%' AND name NOT LIKE '_cf_%'",
).all<{ name: string }>();
if (tables.results.length) {
  await env.NOTIFY_DB.batch([
    env.NOTIFY_DB.prepare("PRAGMA defer_foreign_keys = on"),
    ...tables.results.map((t) => env.NOTIFY_DB.prepare(`DROP TABLE IF EXISTS "${t.name}"`)),
  ]);
}
await applyD1Migrations(env.NOTIFY_DB, env.TEST_MIGRATIONS);

// What a file changes in the shared runtime's globals ends with the file.
afterAll(() => {
  vi.useRealTimers();
  vi.unstubAllGlobals();
  vi.unstubAllEnvs();
  vi.restoreAllMocks();
});
