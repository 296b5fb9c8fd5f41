// Applies migrations to the platform database, every tenant slot and the notification database.
//   npm run db:migrate            local state (what `npm run dev` uses)
//   npm run db:migrate -- --remote   the deployed databases
import { createHash } from "node:crypto";
import { existsSync, mkdirSync, readdirSync, readFileSync, writeFileSync } from "node:fs";
import { dirname, join } from "node:path";
import { root } from "./lib/dev-server.mjs";
import { migratedDatabases, pool, STATE_DIR, targetArgs, workerConfigs, wrangler } from "./lib/wrangler.mjs";

const STAMP = join(STATE_DIR, "migrations.sha256");

/** A digest of every database and migration file: local runs skip wrangler when nothing changed. */
function fingerprint(jobs) {
  const hash = createHash("sha256");
  for (const job of jobs) {
    // The id too: local state is kept per database id, so ids recorded by `npm run deploy` start afresh.
    hash.update(`${job.config}:${job.name}:${job.id}\n`);
    const dir = join(root, dirname(job.config), job.dir);
    for (const file of readdirSync(dir)
      .filter((f) => f.endsWith(".sql"))
      .sort()) {
      hash.update(file).update(readFileSync(join(dir, file)));
    }
  }
  return hash.digest("hex");
}

/** @param {{ remote?: boolean, quiet?: boolean }} [opts] */
export async function migrateAll({ remote = false, quiet = false } = {}) {
  const jobs = workerConfigs().flatMap((config) =>
    migratedDatabases(config).map((db) => ({
      config,
      name: db.database_name,
      binding: db.binding,
      id: db.database_id,
      dir: db.migrations_dir,
    })),
  );
  const digest = fingerprint(jobs);
  if (!remote && existsSync(STAMP) && readFileSync(STAMP, "utf8") === digest) {
    return 0;
  }
  await pool(jobs, remote ? 2 : 4, async (job) => {
    const args = ["d1", "migrations", "apply", job.name, "-c", job.config, ...targetArgs(remote)];
    // Parallel local runs share one state directory; on a fresh one, a workerd still recovering a
    // database another run opened answers SQLITE_BUSY. Applied migrations are recorded, so a retry
    // resumes where the failed run stopped.
    for (let attempt = 1; ; attempt++) {
      try {
        await wrangler(args);
        break;
      } catch (error) {
        if (remote || attempt >= 3 || !/SQLITE_BUSY/.test(String(error?.stderr ?? error))) {
          throw error;
        }
      }
    }
    if (!quiet) {
      console.log(`migrated ${job.binding} (${job.name})`);
    }
  });
  if (!remote) {
    mkdirSync(STATE_DIR, { recursive: true });
    writeFileSync(STAMP, digest);
  }
  return jobs.length;
}

if (import.meta.url === `file://${process.argv[1]}`) {
  const remote = process.argv.includes("--remote");
  const count = await migrateAll({ remote });
  console.log(`${count} database(s) migrated ${remote ? "remotely" : "locally"}`);
}
