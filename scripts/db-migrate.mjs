// Applies migrations to the platform database, every tenant slot and the notification database.
//   npm run db:migrate            local state (what `npm run dev` uses)
//   npm run db:migrate -- --remote   the deployed databases
import { createHash } from "node:crypto";
import { existsSync, mkdirSync, readdirSync, readFileSync, writeFileSync } from "node:fs";
import { dirname, join } from "node:path";
import { migrate } from "./lib/d1-apply.mjs";
import { root } from "./lib/dev-server.mjs";
import { openLocalD1 } from "./lib/local-d1.mjs";
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

/**
 * Local databases are migrated in one process through Miniflare's bindings (`local`: databases already
 * opened by the caller, e.g. `npm run dev`, which seeds them next); remote ones by wrangler's CLI.
 * @param {{ remote?: boolean, quiet?: boolean, local?: Awaited<ReturnType<typeof openLocalD1>> }} [opts]
 */
export async function migrateAll({ remote = false, quiet = false, local } = {}) {
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
  // The stamp lives with the databases it describes (those the caller opened, else the local state).
  const stamp = local ? join(local.persistTo, "migrations.sha256") : STAMP;
  if (!remote && existsSync(stamp) && readFileSync(stamp, "utf8") === digest) {
    return 0;
  }
  if (!remote) {
    const opened = local ?? (await openLocalD1(workerConfigs(), STATE_DIR));
    try {
      let done = 0;
      for (const db of opened.databases) {
        await migrate(await opened.binding(db), db.migrations);
        done += 1;
        if (!quiet) {
          console.log(`  migrated ${db.name} (${done}/${opened.databases.length})`);
        }
      }
    } finally {
      if (!local) {
        await opened.dispose();
      }
    }
    mkdirSync(dirname(stamp), { recursive: true });
    writeFileSync(stamp, digest);
    return jobs.length;
  }
  await pool(jobs, 2, async (job) => {
    await wrangler(["d1", "migrations", "apply", job.name, "-c", job.config, ...targetArgs(true)]);
    if (!quiet) {
      console.log(`migrated ${job.binding} (${job.name})`);
    }
  });
  return jobs.length;
}

if (import.meta.url === `file://${process.argv[1]}`) {
  const remote = process.argv.includes("--remote");
  const count = await migrateAll({ remote });
  console.log(`${count} database(s) migrated ${remote ? "remotely" : "locally"}`);
}
