// Models Warga past one Worker (docs/adr/XXXX-past-one-worker.md): 5,000 → 50,000 tenants, one D1
// database each, spread over shard Workers that each own a range of slots, behind a dispatcher that
// routes by tenant slug. Prints slot assignment, accounts needed, migrate-all time and the dispatcher's
// lookup cost. Two inputs are measured here, locally: the SQL cost of applying every tenant migration
// to an empty SQLite database, and the cost of looking a slug up (in-memory map and indexed SQLite).
//   node scripts/shard-sim.mjs [--slots-per-shard 4000] [--rtt-ms 30] [--concurrency 6] [--headroom 0.1]
import { readdirSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { root } from "./lib/dev-server.mjs";

const arg = (name, fallback) => {
  const index = process.argv.indexOf(`--${name}`);
  return index === -1 ? fallback : Number(process.argv[index + 1]);
};

// Platform limits (developers.cloudflare.com/d1/platform/limits, Workers Paid).
export const D1_PER_ACCOUNT = 50_000; // raisable on request
export const BINDINGS_PER_WORKER = 5_000; // "approximately": 1 MB of script metadata, ~150 B per binding
export const SIMULTANEOUS_CONNECTIONS = 6; // open subrequests per invocation

const SLOTS_PER_SHARD = arg("slots-per-shard", 4_000); // headroom under ~5,000 for vars, secrets, other bindings
const RTT_MS = arg("rtt-ms", 30); // one D1 batch from a Worker near the database
const CONCURRENCY = arg("concurrency", SIMULTANEOUS_CONNECTIONS);
const HEADROOM = arg("headroom", 0.1); // free slots kept provisioned ahead of demand
const TTL_S = 30; // tenant record cache (ADR 0007)
// `wrangler d1 migrations apply <db> --local` per database, measured on the 2-core development machine
// (55 s, almost all of it the CLI starting up): what scripts/db-migrate.mjs pays per database, 2 at a time.
const CLI_MS = arg("cli-ms", 55_000);
const CLI_POOL = 2;
const TENANT_COUNTS = [5_000, 10_000, 20_000, 50_000];

function median(values) {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.floor(sorted.length / 2)];
}

/** Applies every tenant migration to a fresh in-memory SQLite, several times: median ms and counts. */
async function measureMigrateAll() {
  const { DatabaseSync } = await import("node:sqlite");
  const dir = join(root, "migrations", "tenant");
  const files = readdirSync(dir)
    .filter((f) => f.endsWith(".sql"))
    .sort();
  const statements = files.flatMap((f) =>
    readFileSync(join(dir, f), "utf8")
      .split("--> statement-breakpoint")
      .map((s) => s.trim())
      .filter(Boolean),
  );
  const runs = [];
  for (let i = 0; i < 15; i++) {
    const db = new DatabaseSync(":memory:");
    const started = performance.now();
    db.exec(
      "CREATE TABLE d1_migrations (id INTEGER PRIMARY KEY AUTOINCREMENT, name TEXT UNIQUE, applied_at TEXT)",
    );
    db.exec("BEGIN");
    for (const file of files) {
      db.prepare("INSERT INTO d1_migrations (name) VALUES (?)").run(file);
    }
    for (const statement of statements) {
      db.exec(statement);
    }
    db.exec("COMMIT");
    runs.push(performance.now() - started);
    db.close();
  }
  return { migrations: files.length, statements: statements.length, sqlMs: median(runs) };
}

/** Slug lookups: the dispatcher's per-isolate map, and an indexed SQLite read standing in for D1. */
async function measureLookup(tenants) {
  const { DatabaseSync } = await import("node:sqlite");
  const db = new DatabaseSync(":memory:");
  db.exec("CREATE TABLE tenants (slug TEXT PRIMARY KEY, shard INTEGER NOT NULL, slot INTEGER NOT NULL)");
  const insert = db.prepare("INSERT INTO tenants VALUES (?, ?, ?)");
  const map = new Map();
  db.exec("BEGIN");
  for (let i = 0; i < tenants; i++) {
    const slug = `rt-${String(i).padStart(5, "0")}-kelurahan`;
    const shard = Math.floor(i / SLOTS_PER_SHARD);
    insert.run(slug, shard, (i % SLOTS_PER_SHARD) + 1);
    map.set(slug, shard);
  }
  db.exec("COMMIT");
  const select = db.prepare("SELECT shard FROM tenants WHERE slug = ?");
  const probes = 20_000;
  const keys = Array.from(
    { length: probes },
    (_, i) => `rt-${String((i * 7919) % tenants).padStart(5, "0")}-kelurahan`,
  );
  let started = performance.now();
  for (const key of keys) {
    select.get(key);
  }
  const sqlUs = ((performance.now() - started) * 1000) / probes;
  started = performance.now();
  for (const key of keys) {
    map.get(key);
  }
  const mapUs = ((performance.now() - started) * 1000) / probes;
  db.close();
  return { sqlUs, mapUs };
}

/**
 * Share of requests that miss a per-isolate TTL cache, over Zipf-distributed tenant traffic: a tenant
 * seen λ times a second by one isolate misses once per TTL window, so 1 / (1 + λ·TTL) of its requests.
 */
function missRate(tenants, requestsPerSecondPerIsolate, s = 1.1) {
  let norm = 0;
  for (let k = 1; k <= tenants; k++) {
    norm += 1 / k ** s;
  }
  let misses = 0;
  for (let k = 1; k <= tenants; k++) {
    const share = 1 / k ** s / norm;
    const lambda = share * requestsPerSecondPerIsolate;
    misses += share * (1 / (1 + lambda * TTL_S));
  }
  return misses;
}

function assign(tenants) {
  const slots = Math.ceil(tenants * (1 + HEADROOM));
  const shards = Math.ceil(slots / SLOTS_PER_SHARD);
  // The platform and notification databases live beside the tenant slots.
  const databases = slots + 2;
  return { slots, shards, databases, accounts: Math.ceil(databases / D1_PER_ACCOUNT) };
}

function migrateAll(slots, shards, migrationsPending, sqlMs) {
  // One batch per pending migration per slot, CONCURRENCY at a time inside each shard; shards in parallel.
  const perSlotMs = migrationsPending * RTT_MS + sqlMs;
  const perShardSlots = Math.ceil(slots / shards);
  const wallMs = Math.ceil(perShardSlots / CONCURRENCY) * perSlotMs;
  const oneWorkerMs = Math.ceil(slots / CONCURRENCY) * perSlotMs;
  return { perSlotMs, wallMs, oneWorkerMs };
}

const fmt = (ms) =>
  ms >= 3_600_000
    ? `${(ms / 3_600_000).toFixed(1)} h`
    : ms >= 60_000
      ? `${(ms / 60_000).toFixed(1)} min`
      : `${(ms / 1000).toFixed(1)} s`;

async function main() {
  const measured = await measureMigrateAll();
  console.log(
    `measured locally: ${measured.migrations} tenant migrations (${measured.statements} statements) apply to an empty SQLite in ${measured.sqlMs.toFixed(2)} ms`,
  );
  console.log(
    `wrangler CLI per database (measured on the dev machine, mostly start-up): ${fmt(CLI_MS)}, ${CLI_POOL} at a time\n` +
      `model: ${SLOTS_PER_SHARD} slots per shard Worker (limit ~${BINDINGS_PER_WORKER} bindings), ${D1_PER_ACCOUNT} D1 per account, ${Math.round(HEADROOM * 100)}% free slots, D1 batch RTT ${RTT_MS} ms, ${CONCURRENCY} at a time per shard, tenant cache TTL ${TTL_S} s\n`,
  );
  const rows = [];
  for (const tenants of TENANT_COUNTS) {
    const a = assign(tenants);
    const full = migrateAll(a.slots, a.shards, measured.migrations, measured.sqlMs);
    const one = migrateAll(a.slots, a.shards, 1, measured.sqlMs / measured.migrations);
    const lookup = await measureLookup(tenants);
    const miss = missRate(tenants, 200);
    // A miss reads the platform table (one D1 round trip); a hit is a map lookup.
    const meanLookupMs = miss * RTT_MS + (1 - miss) * (lookup.mapUs / 1000);
    rows.push({
      tenants,
      slots: a.slots,
      shards: a.shards,
      "D1 dbs": a.databases,
      accounts: a.accounts,
      "1 migration, all slots": fmt(one.wallMs),
      "every migration (new pool)": fmt(full.wallMs),
      "same, one Worker": fmt(full.oneWorkerMs),
      "same, wrangler CLI": fmt(Math.ceil(a.slots / CLI_POOL) * CLI_MS),
      "slug→shard map µs": lookup.mapUs.toFixed(2),
      "indexed read µs": lookup.sqlUs.toFixed(2),
      "cache miss %": (miss * 100).toFixed(1),
      "mean lookup ms": meanLookupMs.toFixed(2),
    });
  }
  console.table(rows);
  console.log(
    "\nNotes: a shard migrates only its own slots, so wall time is per shard; 'one Worker' is the same work\n" +
      "serialised through one Worker's connections (which could not bind them all past ~5,000); 'wrangler CLI'\n" +
      "is scripts/db-migrate.mjs's way, one process per database. Past 50,000 databases the second account (or a raised\n" +
      "limit) is needed: the dispatcher's table maps slug → (account, shard, slot). Cache misses assume\n" +
      "200 requests/s per dispatcher isolate with Zipf(1.1) tenant popularity.",
  );
}

if (import.meta.url === `file://${process.argv[1]}`) {
  await main();
}
