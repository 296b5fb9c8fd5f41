// The state and the server every workerd bench starts from: the bench's own local databases
// (scripts/bench/state.mjs) migrated and seeded as `npm run dev` has its own, and the bench entry (the
// API plus its bare baselines, scripts/bench/entry.ts) served on workerd directly (scripts/lib/workerd.mjs).
// Both are made once per process: `npm run bench` runs many suites, and each used to migrate, seed and
// bundle again (a smoke run of every suite spent most of its time there).
import { readFileSync, writeFileSync } from "node:fs";
import "./state.mjs";
import { ensureDevVars } from "../lib/dev-vars.mjs";
import { bundleWorker, startWorkerd } from "../lib/workerd.mjs";
import { STATE_DIR } from "../lib/wrangler.mjs";
import { declaredSlots, migrateAndSeed } from "./d1.mjs";

let bundled;
/** The bench entry's deploy bundle, built once per process (`releaseBenchBundle` removes it). */
export function benchBundle() {
  bundled ??= bundleWorker("wrangler.toml", { script: "scripts/bench/entry.ts" });
  return bundled;
}

export async function releaseBenchBundle() {
  if (bundled) {
    (await bundled).cleanup();
    bundled = undefined;
  }
}

/**
 * The bench entry on workerd over the bench state (or `opts.persistTo`); `opts` as `startWorkerd` takes
 * them. Stopping the server leaves the shared bundle in place for the next suite.
 */
export async function startBenchWorkerd(opts = {}) {
  const bundle = await benchBundle();
  return startWorkerd({ persistTo: STATE_DIR, ...opts, bundle: { ...bundle, cleanup: () => {} } });
}

let prepared;
/**
 * Development variables in place, every database of the main Worker in the bench state migrated and
 * seeded. Through a workerd's own bindings, not `wrangler d1 …` (one workerd per command: on a fresh
 * state and a busy machine the CLI took minutes); both write the same `d1_migrations` ledger.
 */
export function prepareBenchState() {
  prepared ??= (async () => {
    ensureDevVars(["wrangler.toml"]);
    const server = await startBenchWorkerd();
    try {
      await migrateAndSeed(server.mf, declaredSlots());
    } finally {
      await server.stop();
    }
  })();
  return prepared;
}

/** Resident and peak resident memory of a process (kB), from /proc/<pid>/status (Linux). */
function memoryKb(pid) {
  const status = readFileSync(`/proc/${pid}/status`, "utf8");
  const field = (name) => Number(new RegExp(`^${name}:\\s*(\\d+) kB`, "m").exec(status)?.[1] ?? Number.NaN);
  return { rss: field("VmRSS"), hwm: field("VmHWM") };
}

/**
 * One request measured alone on a bench server: its answer (status, content type, body bytes), wall
 * time, the workerd process's CPU and its peak RSS over the RSS before the request (the peak is reset
 * first where the kernel allows).
 */
export async function measureAlone(server, url, init) {
  try {
    writeFileSync(`/proc/${server.pid}/clear_refs`, "5");
  } catch {}
  const before = memoryKb(server.pid);
  const cpu0 = server.cpu();
  const started = performance.now();
  const res = await fetch(url, init);
  const bytes = new Uint8Array(await res.arrayBuffer());
  const ms = performance.now() - started;
  const after = memoryKb(server.pid);
  return {
    status: res.status,
    contentType: res.headers.get("content-type") ?? "",
    bytes,
    ms,
    cpuMs: (server.cpu() - cpu0) * 1000,
    peakMiB: (after.hwm - before.rss) / 1024,
  };
}
