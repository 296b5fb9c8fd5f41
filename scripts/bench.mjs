// `npm run bench [suite…] [--smoke]`: runs the benchmark suites (all by default) and prints ratios and
// CPU per request measured side by side in one run. Absolute numbers vary with the machine; compare the
// ratios, and CPU per request (the `api` and `routes` tables), which is steadier than latency on a
// shared machine.
//
// Every suite runs on the bench's own local state (`.wrangler/bench-state`, scripts/bench/state.mjs), so
// a running `npm run dev` keeps its databases and Durable Objects. A suite that fails is reported and the
// next one still runs; the exit status says whether all of them finished.
//
// `--smoke` (or BENCH_SMOKE=1): every suite once at a size that takes seconds, no figure judged; `.ci/run`
// runs it so a schema or route change that breaks a bench fails CI.
import { applySmokeKnobs, BENCH_STATE_DIR } from "./bench/state.mjs";

const args = process.argv.slice(2);
if (args.includes("--smoke")) {
  process.env.BENCH_SMOKE = "1";
}
const smoke = process.env.BENCH_SMOKE === "1";
if (smoke) {
  applySmokeKnobs();
}

// Imported after the state and the knobs are set: the libraries read both when first imported.
const { spawnSync } = await import("node:child_process");
const { existsSync, readdirSync } = await import("node:fs");
const { join } = await import("node:path");
const { root } = await import("./lib/dev-server.mjs");
const { resetLocalRateLimits, STATE_DIR } = await import("./lib/wrangler.mjs");
const { releaseBenchBundle } = await import("./bench/server.mjs");

/** Arguments a Worker's own bench script takes in a smoke run (by file name). */
const SMOKE_ARGS = { "queue-bench.mjs": ["--messages", "20", "--timeout", "60"] };

/** In-process suites of the main API, then each Worker's own bench scripts as child processes. */
const suites = {
  api: () => import("./bench/api-routes.mjs").then((m) => m.run()),
  routes: () => import("./bench/routes.mjs").then((m) => m.run()),
  writes: () => import("./bench/writes.mjs").then((m) => m.run()),
  identity: () => import("./bench/auth-enumeration.mjs").then((m) => m.run()),
  musyawarah: () => import("./bench/poll-votes.mjs").then((m) => m.run()),
  passwords: () => import("./bench/passwords.mjs").then((m) => m.run()),
  surat: () => import("./bench/surat-pdf.mjs").then((m) => m.run()),
  support: () => import("./bench/support-tickets.mjs").then((m) => m.run()),
  finance: () => import("./bench/finance.mjs").then((m) => m.run()),
  registry: () => import("./bench/registry.mjs").then((m) => m.run()),
  hierarchy: () => import("./bench/hierarchy.mjs").then((m) => m.run()),
  "read-path": () => import("./bench/read-path.mjs").then((m) => m.run()),
  web: () => import("./bench/web-bundle.mjs").then((m) => m.run()),
  asisten: () => import("./bench/asisten.mjs").then((m) => m.run()),
  setup: () => import("./bench/setup.mjs").then((m) => m.run()),
};
for (const dir of readdirSync(join(root, "workers"), { withFileTypes: true })) {
  const bench = join(root, "workers", dir.name, "bench");
  if (dir.isDirectory() && existsSync(bench)) {
    suites[dir.name] = async () => {
      for (const file of readdirSync(bench).filter((f) => f.endsWith(".mjs"))) {
        const extra = smoke ? (SMOKE_ARGS[file] ?? []) : [];
        const run = spawnSync(process.execPath, [join(bench, file), ...extra], {
          cwd: root,
          stdio: "inherit",
        });
        if (run.status !== 0) {
          throw new Error(`${dir.name}/${file} exited with ${run.status}`);
        }
      }
    };
  }
}

const wanted = args.filter((a) => !a.startsWith("-"));
const unknown = wanted.filter((name) => !suites[name]);
if (unknown.length) {
  console.error(`unknown suite(s): ${unknown.join(", ")}; suites: ${Object.keys(suites).join(", ")}`);
  process.exit(2);
}
console.log(
  `bench state: ${STATE_DIR}${STATE_DIR === BENCH_STATE_DIR ? "" : " (WARGA_STATE_DIR)"}${smoke ? "; smoke sizes, no figure judged" : ""}`,
);
const results = [];
const started = performance.now();
for (const [name, run] of Object.entries(suites)) {
  if (wanted.length && !wanted.includes(name)) {
    continue;
  }
  console.log(`\n=== bench: ${name} ===`);
  const t0 = performance.now();
  try {
    resetLocalRateLimits();
    await run();
    results.push({ name, ok: true, s: (performance.now() - t0) / 1000 });
  } catch (error) {
    console.error(`bench ${name} failed:`, error);
    results.push({ name, ok: false, s: (performance.now() - t0) / 1000 });
  }
}
await releaseBenchBundle();
const failed = results.filter((r) => !r.ok);
console.log(
  `\nbench: ${results.length - failed.length} of ${results.length} suites ran to the end in ${((performance.now() - started) / 1000).toFixed(0)} s ` +
    `(${results.map((r) => `${r.name} ${r.ok ? "" : "FAILED "}${r.s.toFixed(0)} s`).join(", ")})`,
);
// A suite may leave a handle open (a socket of a stopped server): the run ends here either way.
process.exit(failed.length ? 1 : 0);
