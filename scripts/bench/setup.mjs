// `npm run bench -- setup` (issue 49): how long `npm run dev` takes on a fresh clone's state and on a
// warm restart, measured in one run: until its databases are migrated and seeded ("demo data ready"),
// and until the API answers /api/health. Goal: a fresh start answers within 90 s on a quiet 2-core
// machine; the machine's load average is printed beside the figures, since a busy machine stretches
// them all. `--smoke` times the databases' set-up alone (in this process), without starting wrangler.
import { spawn } from "node:child_process";
import { mkdtempSync, rmSync } from "node:fs";
import { loadavg, tmpdir } from "node:os";
import { join } from "node:path";
import { root } from "../lib/dev-server.mjs";

const FRESH_GOAL_S = 90;
const PORT = "8797";
const smoke = process.env.BENCH_SMOKE === "1";
const seconds = (ms) => `${(ms / 1000).toFixed(1)} s`;

/** One `npm run dev` on `state`: the times of its "demo data ready" line and of its first health answer. */
async function startDev(state) {
  const started = performance.now();
  const child = spawn(process.execPath, [join(root, "scripts", "dev.mjs")], {
    cwd: root,
    env: { ...process.env, WARGA_STATE_DIR: state, WARGA_DEV_PORT: PORT, BROWSER: "none" },
    stdio: ["ignore", "pipe", "pipe"],
  });
  let ready;
  let output = "";
  const watch = (chunk) => {
    output += chunk;
    if (ready === undefined && output.includes("demo data ready")) {
      ready = performance.now() - started;
    }
  };
  child.stdout.on("data", watch);
  child.stderr.on("data", watch);
  const exited = new Promise((resolve) => child.on("exit", resolve));
  let answered;
  try {
    for (;;) {
      if (child.exitCode !== null) {
        throw new Error(`npm run dev ended early:\n${output.slice(-2000)}`);
      }
      const ok = await fetch(`http://127.0.0.1:${PORT}/api/health`).then(
        (r) => r.ok,
        () => false,
      );
      if (ok) {
        answered = performance.now() - started;
        break;
      }
      await new Promise((resolve) => setTimeout(resolve, 250));
    }
  } finally {
    child.kill("SIGINT");
    await Promise.race([exited, new Promise((resolve) => setTimeout(resolve, 15_000))]);
    child.kill("SIGKILL");
  }
  return { ready, answered };
}

/** The databases' set-up alone, as `npm run dev` does it (the smoke run's measurement). */
async function prepareDatabases(state) {
  process.env.WARGA_STATE_DIR = state;
  const started = performance.now();
  const { openLocalD1 } = await import("../lib/local-d1.mjs");
  const { migrateAll } = await import("../db-migrate.mjs");
  const { seed } = await import("../seed-dev.mjs");
  const { workerConfigs } = await import("../lib/wrangler.mjs");
  const { slotCountFromConfig } = await import("../tenant-slots.mjs");
  const local = await openLocalD1(workerConfigs(), state);
  try {
    await migrateAll({ local, quiet: true });
    await seed({ slots: slotCountFromConfig(), local });
  } finally {
    await local.dispose();
  }
  return performance.now() - started;
}

export async function run() {
  const state = mkdtempSync(join(tmpdir(), "warga-setup-"));
  const load = () => loadavg()[0].toFixed(1);
  try {
    if (smoke) {
      console.log(
        `\nnpm run dev's databases on a fresh state (smoke: no server started): ${seconds(await prepareDatabases(state))} (load ${load()})`,
      );
      return;
    }
    const fresh = await startDev(state);
    const loadFresh = load();
    const warm = await startDev(state);
    console.log("\nnpm run dev, from its start to each milestone (one run of each, same machine)");
    console.log(
      `${"start".padEnd(8)}${"databases ready".padStart(17)}${"API answers".padStart(14)}${"load".padStart(7)}`,
    );
    console.log(
      `${"fresh".padEnd(8)}${seconds(fresh.ready).padStart(17)}${seconds(fresh.answered).padStart(14)}${loadFresh.padStart(7)}`,
    );
    console.log(
      `${"warm".padEnd(8)}${seconds(warm.ready).padStart(17)}${seconds(warm.answered).padStart(14)}${load().padStart(7)}`,
    );
    console.log(
      `goal: a fresh start answers within ${FRESH_GOAL_S} s on a quiet machine: ${fresh.answered <= FRESH_GOAL_S * 1000 ? "met" : "NOT met"} (load average ${loadFresh} on ${(await import("node:os")).availableParallelism()} cores)`,
    );
  } finally {
    rmSync(state, { recursive: true, force: true });
  }
}
