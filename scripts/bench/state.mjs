// The bench's own local state (issue 30): every suite migrates, seeds and serves `.wrangler/bench-state`
// (or the directory `WARGA_STATE_DIR` names), never the `.wrangler/state` a running `npm run dev` holds
// open. Imported first by every entry point of the benches, before anything reads STATE_DIR
// (scripts/lib/wrangler.mjs reads the variable once, when it is first imported).
import { existsSync, mkdirSync, readdirSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { setTimeout as sleep } from "node:timers/promises";
import { root } from "../lib/dev-server.mjs";

export const BENCH_STATE_DIR = join(root, ".wrangler", "bench-state");

process.env.WARGA_STATE_DIR ||= BENCH_STATE_DIR;

/** Whether a process with this id is still running (signal 0 only asks). */
function alive(pid) {
  try {
    process.kill(pid, 0);
    return true;
  } catch (error) {
    return error?.code === "EPERM";
  }
}

/**
 * One bench run at a time on one state directory: two runs migrating and seeding the same SQLite files
 * at once break each other (seen: "duplicate column name" from a migration applied twice). The lock is
 * a directory holding the owner's pid, taken atomically by `mkdir`; a run waits for a live owner and
 * takes over from a dead one. Released when the process exits, however it exits.
 */
async function holdStateLock(dir) {
  const lock = `${dir}.lock`;
  mkdirSync(join(dir, ".."), { recursive: true });
  for (let waited = 0; ; waited++) {
    try {
      mkdirSync(lock);
      writeFileSync(join(lock, "pid"), String(process.pid));
      process.on("exit", () => rmSync(lock, { recursive: true, force: true }));
      return;
    } catch (error) {
      if (error?.code !== "EEXIST") {
        throw error;
      }
    }
    let owner = 0;
    try {
      owner = Number(readFileSync(join(lock, "pid"), "utf8"));
    } catch {
      // Taken a moment ago and the pid not written yet: wait like for a live owner.
    }
    if (owner && !alive(owner)) {
      rmSync(lock, { recursive: true, force: true });
      continue;
    }
    if (waited % 30 === 0) {
      console.error(`bench: waiting for the run holding ${lock} (pid ${owner || "?"}) to finish`);
    }
    await sleep(2000);
  }
}

/** Every migration file the benches apply, as `<dir>/<file>`, sorted. */
function migrationFiles() {
  const dirs = [
    "migrations/platform",
    "migrations/tenant",
    ...readdirSync(join(root, "workers")).map((w) => `workers/${w}/migrations`),
  ].filter((dir) => existsSync(join(root, dir)));
  return dirs.flatMap((dir) =>
    readdirSync(join(root, dir))
      .filter((f) => f.endsWith(".sql"))
      .sort()
      .map((f) => `${dir}/${f}`),
  );
}

/**
 * The bench's state starts over when a migration it was built with is gone: its ledger names files by
 * name, so a migration renamed or rewritten on a branch (drizzle names them at random) would be applied
 * again over its own columns ("duplicate column name"). Appended migrations are simply applied. A state
 * without the list (written before the list was kept) starts over once.
 */
function resetIfMigrationsRewritten(dir) {
  const list = join(dir, "migrations.txt");
  const now = migrationFiles();
  let stale = false;
  if (existsSync(dir)) {
    const before = existsSync(list) ? readFileSync(list, "utf8").split("\n").filter(Boolean) : null;
    stale = before === null || before.some((name) => !now.includes(name));
  }
  if (stale) {
    console.error(`bench: ${dir} was built with migrations no longer here; starting it over`);
    rmSync(dir, { recursive: true, force: true });
  }
  mkdirSync(dir, { recursive: true });
  writeFileSync(list, now.join("\n"));
}

await holdStateLock(process.env.WARGA_STATE_DIR);
if (process.env.WARGA_STATE_DIR === BENCH_STATE_DIR) {
  resetIfMigrationsRewritten(BENCH_STATE_DIR);
}

/**
 * `BENCH_SMOKE=1` (or `npm run bench -- --smoke`): every suite once at a size that takes seconds, to
 * prove it still runs against the current schema and routes; no figure is judged. Each suite reads its
 * own knobs from the environment, so the smoke sizes are set here, before any suite is imported; a
 * knob the caller set wins.
 */
export const SMOKE_KNOBS = {
  BENCH_SECONDS: "0.3",
  BENCH_ROUNDS: "1",
  BENCH_CONNECTIONS: "2",
  BENCH_SIGN_INS: "1",
  BENCH_SLICES: "1",
  BENCH_SLICE_REQUESTS: "4",
  BENCH_VOTERS: "20",
  BENCH_ACCOUNTS: "2",
  BENCH_PEER_FAMILIES: "60",
  BENCH_PEER_PERSONS: "200",
  BENCH_LARGE_FAMILIES: "100",
  BENCH_LARGE_PERSONS: "360",
  BENCH_TICKETS: "100",
  BENCH_UNITS: "40",
  BENCH_FAMILIES: "100",
  BENCH_PERSONS: "360",
  BENCH_VEHICLES: "120",
  BENCH_CHILDREN: "2",
  BENCH_LETTERS: "1",
  BENCH_CACHED: "3",
  BENCH_ROUTES_SCALE: "0.02",
  BENCH_RW_CHILDREN: "2",
  BENCH_SMOKE: "1",
};

export const smoke = () => process.env.BENCH_SMOKE === "1";

export function applySmokeKnobs() {
  for (const [name, value] of Object.entries(SMOKE_KNOBS)) {
    process.env[name] ??= value;
  }
}
