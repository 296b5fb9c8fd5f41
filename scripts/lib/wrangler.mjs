// Small helpers around the wrangler CLI for the project's scripts.
import { execFile } from "node:child_process";
import { existsSync, mkdirSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { join, resolve } from "node:path";
import { promisify } from "node:util";
import { parse } from "smol-toml";
import { projectEnv, root } from "./dev-server.mjs";

const run = promisify(execFile);
/**
 * The local state every local command uses: `npm run dev`'s own, unless `WARGA_STATE_DIR` names another
 * (`npm run bench` keeps its own there, so it never touches a running dev server's state).
 */
export const STATE_DIR = process.env.WARGA_STATE_DIR
  ? resolve(root, process.env.WARGA_STATE_DIR)
  : join(root, ".wrangler", "state");
export const WRANGLER = join(root, "node_modules", ".bin", "wrangler");

/** The main Worker's config first, then each Worker under workers/ that has one. */
export function workerConfigs() {
  const configs = ["wrangler.toml"];
  for (const name of ["notify", "ticket-mail"]) {
    const path = join("workers", name, "wrangler.toml");
    if (existsSync(join(root, path))) {
      configs.push(path);
    }
  }
  return configs;
}

export function readConfig(configPath) {
  return parse(readFileSync(join(root, configPath), "utf8"));
}

/** D1 databases of a config that have migrations. */
export function migratedDatabases(configPath) {
  const config = readConfig(configPath);
  return (config.d1_databases ?? []).filter((db) => db.migrations_dir);
}

export async function wrangler(args, opts = {}) {
  const { stdout } = await run(WRANGLER, args, {
    cwd: root,
    env: projectEnv({ CI: "true" }),
    maxBuffer: 64 * 1024 * 1024,
    ...opts,
  });
  return stdout;
}

/** Where a run points: `--local` (the state `npm run dev` uses) or `--remote`. */
export function targetArgs(remote) {
  return remote ? ["--remote"] : ["--local", "--persist-to", STATE_DIR];
}

/** Runs async jobs with at most `limit` at a time. */
export async function pool(items, limit, job) {
  const results = [];
  let next = 0;
  const workers = Array.from({ length: Math.min(limit, items.length) }, async () => {
    while (next < items.length) {
      const index = next++;
      results[index] = await job(items[index], index);
    }
  });
  await Promise.all(workers);
  return results;
}

/**
 * Benchmarks sign in as the demo accounts many times; the sign-in rate limits (kept in the local
 * RateLimiter Durable Object's state) would refuse them after a few runs. Only ever called on the
 * bench's own state (`WARGA_STATE_DIR`, scripts/bench/state.mjs): deleting the dev state's objects
 * under a running `npm run dev` made its sign-ins answer 500.
 */
export function resetLocalRateLimits() {
  if (!process.env.WARGA_STATE_DIR) {
    throw new Error("resetLocalRateLimits: only a bench's own state (WARGA_STATE_DIR), never npm run dev's");
  }
  rmSync(join(STATE_DIR, "v3", "do", "warga-api-RateLimiter"), { recursive: true, force: true });
}

/** Runs a SQL file's worth of statements against a local database of the main Worker. */
export async function executeLocalSql(database, sql, name = "statements") {
  mkdirSync(join(root, ".cache"), { recursive: true });
  const file = join(root, ".cache", `${database}-${name}.sql`);
  writeFileSync(file, sql);
  return wrangler([
    "d1",
    "execute",
    database,
    "-c",
    "wrangler.toml",
    ...targetArgs(false),
    "--file",
    file,
    "--yes",
  ]);
}

/** Rows of one query against a local database of the main Worker. */
export async function queryLocal(database, sql) {
  const out = await wrangler([
    "d1",
    "execute",
    database,
    "-c",
    "wrangler.toml",
    ...targetArgs(false),
    "--json",
    "--command",
    sql,
  ]);
  return JSON.parse(out)[0].results;
}
