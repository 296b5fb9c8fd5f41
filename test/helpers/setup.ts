import { applyD1Migrations } from "cloudflare:test";
import { env } from "cloudflare:workers";
import { afterAll, afterEach, vi } from "vitest";
import { resetLivenessFeed } from "../../src/core/auth/liveness";
import { applyMigrations } from "../../src/core/db/migrate";
import { TENANT_MIGRATIONS } from "../../src/core/db/tenant-migrations.generated";
import { resetClock } from "./clock";
import { resetHarness } from "./harness";

/**
 * One runtime serves every test file of the project (`isolate: false` in test/vitest.config.ts: starting
 * workerd and loading the app once instead of once per file is most of the suite's time). So that each
 * file still starts from nothing, this runs before each file: the platform and notification databases
 * are dropped and migrated again, the tenant databases the previous file claimed are emptied (or dropped,
 * when a test changed their schema) so the next tenant on that slot starts from nothing, and the file
 * store is cleared. Durable
 * Objects keep their state, but every test names its own (a poll's id, a fresh address or account for
 * rate limits).
 */
const bindings = env as unknown as Record<string, D1Database | R2Bucket | undefined> & {
  PLATFORM_DB: D1Database;
  NOTIFY_DB_TEST: D1Database;
  FILES: R2Bucket;
  SCHEMA_REFERENCE_DB: D1Database;
  PLATFORM_MIGRATIONS: Parameters<typeof applyD1Migrations>[1];
  NOTIFY_MIGRATIONS: Parameters<typeof applyD1Migrations>[1];
};

const USER_TABLES =
  "SELECT name FROM sqlite_master WHERE type = 'table' AND name NOT LIKE 'sqlite_%' AND name NOT LIKE '_cf_%'";

async function tablesOf(db: D1Database): Promise<string[]> {
  return (await db.prepare(USER_TABLES).all<{ name: string }>()).results.map((r) => r.name);
}

/** Drops every table (migrations log included), so the database is migrated from scratch when used next. */
async function dropTables(db: D1Database) {
  const tables = await tablesOf(db);
  if (tables.length) {
    await db.batch([
      db.prepare("PRAGMA defer_foreign_keys = on"),
      ...tables.map((t) => db.prepare(`DROP TABLE IF EXISTS "${t}"`)),
    ]);
  }
}

const SCHEMA =
  "SELECT type, name, sql FROM sqlite_master WHERE name NOT LIKE 'sqlite_%' AND name NOT LIKE '_cf_%' ORDER BY type, name";

async function schemaOf(db: D1Database): Promise<string> {
  return JSON.stringify((await db.prepare(SCHEMA).all()).results);
}

/**
 * A tenant database's schema as the migrations leave it: a database of its own (test/vitest.config.ts),
 * migrated once per runtime and kept on the runtime's global, which outlives each file's module state.
 */
const runtime = globalThis as { tenantSchema?: Promise<string> };
function tenantSchema(): Promise<string> {
  runtime.tenantSchema ??= applyMigrations(bindings.SCHEMA_REFERENCE_DB, TENANT_MIGRATIONS).then(() =>
    schemaOf(bindings.SCHEMA_REFERENCE_DB),
  );
  return runtime.tenantSchema;
}

/**
 * A claimed tenant database made as a freshly migrated one is: emptied when its schema is the migrations'
 * (a new tenant's database holds no row but the ledger's), so the next tenant on the slot skips the
 * migrations (most of a tenant's creation time); dropped when a test changed the schema (a renamed
 * table, an added trigger), to be migrated again. Delete triggers keep tallies, so a second pass clears
 * what the first one's triggers wrote.
 */
async function resetTenantDb(db: D1Database) {
  const [schema, reference] = await Promise.all([schemaOf(db), tenantSchema()]);
  if (schema !== reference) {
    return dropTables(db);
  }
  const tables = (await tablesOf(db)).filter((t) => t !== "d1_migrations");
  for (let pass = 0; pass < 2; pass++) {
    await db.batch([
      db.prepare("PRAGMA defer_foreign_keys = on"),
      ...tables.map((t) => db.prepare(`DELETE FROM "${t}"`)),
    ]);
  }
}

async function emptyBucket(bucket: R2Bucket) {
  for (;;) {
    const page = await bucket.list({ limit: 1000 });
    if (page.objects.length === 0) {
      return;
    }
    await bucket.delete(page.objects.map((o) => o.key));
  }
}

async function freshStorage() {
  const platform = bindings.PLATFORM_DB;
  const migrated = (await tablesOf(platform)).includes("tenants");
  if (migrated) {
    const claimed = await platform.prepare("SELECT slot FROM tenants").all<{ slot: number }>();
    await Promise.all(
      claimed.results.map(({ slot }) => {
        const db = bindings[`TENANT_DB_${String(slot).padStart(2, "0")}`] as D1Database | undefined;
        return db ? resetTenantDb(db) : undefined;
      }),
    );
    // Dropped and migrated again rather than emptied: migrations also write reference rows (templates).
    await Promise.all([
      dropTables(platform),
      dropTables(bindings.NOTIFY_DB_TEST),
      emptyBucket(bindings.FILES),
    ]);
  }
  await applyD1Migrations(platform, bindings.PLATFORM_MIGRATIONS);
  // The notification Worker's database, shared with it by id, so tests can read its delivery log.
  await applyD1Migrations(bindings.NOTIFY_DB_TEST, bindings.NOTIFY_MIGRATIONS);
}

await freshStorage();
resetHarness();
// The isolate's feeds and the display names it keeps were of the previous file's databases.
resetLivenessFeed();

// A test that set the platform's clock (helpers/clock.ts) leaves the real time to the next one.
afterEach(() => {
  resetClock();
});

// What a file changes in the shared runtime's globals ends with the file.
afterAll(() => {
  vi.useRealTimers();
  vi.unstubAllGlobals();
  vi.unstubAllEnvs();
  vi.restoreAllMocks();
});
