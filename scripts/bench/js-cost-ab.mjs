// Two builds of the API side by side: the JavaScript a route costs per request under each, with D1's
// answers taped (scripts/bench/entry.ts, `/__js-cost`), rounds interleaved A, B, B, A, … so the machine's
// drift over minutes (a fifth of a figure, run to run) falls on both alike. A is the bench entry as the
// tree has it, or as a commit had it (`JS_COST_A_REF`: built from a worktree of that commit); B the tree
// with top-level settings of wrangler.toml set (replaced where the file has them, else added), or another
// log level:
//
//   node scripts/bench/js-cost-ab.mjs                            # B: keep_names = true (before ADR 0015's 13th pass)
//   JS_COST_B_TOML='minify = true' node scripts/bench/js-cost-ab.mjs
//   JS_COST_B_TOML='' JS_COST_B_LOG_LEVEL=warn node scripts/bench/js-cost-ab.mjs   # the access line's share
//   JS_COST_A_REF=HEAD node scripts/bench/js-cost-ab.mjs         # B: the tree's uncommitted change, as is
//
// JS_COST_PATH (a GET of the API, as sekretaris.rt01; default the tenant read), JS_COST_N requests per
// round (3,000), JS_COST_ROUNDS (8). Prints each side's rounds, their medians and the median of the
// paired differences B − A: the figure to read.
import "./state.mjs";
import { execFileSync } from "node:child_process";
import { cpSync, existsSync, mkdtempSync, readFileSync, rmSync, symlinkSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { root } from "../lib/dev-server.mjs";
import { bundleWorker, startWorkerd } from "../lib/workerd.mjs";
import { STATE_DIR } from "../lib/wrangler.mjs";
import { signIn } from "./api-routes.mjs";
import { jsCostRound, median } from "./js-cost.mjs";
import { prepareBenchState } from "./server.mjs";

const A_REF = process.env.JS_COST_A_REF;
// With A at a commit, B is the tree as it is unless a setting is asked for too.
const B_TOML = process.env.JS_COST_B_TOML ?? (A_REF ? "" : "keep_names = true");
const B_LOG_LEVEL = process.env.JS_COST_B_LOG_LEVEL ?? "info";
const PATH = process.env.JS_COST_PATH ?? "/api/kependudukan/units/seed-unit-rt01-a1";
const N = Number(process.env.JS_COST_N ?? 3000);
const ROUNDS = Number(process.env.JS_COST_ROUNDS ?? 8);

await prepareBenchState();
// B's config beside wrangler.toml (its paths are relative to it): each `key = value` line of B_TOML
// replaces the top-level line of that key, or is added before the first table.
const configB = join(root, "wrangler.js-cost-b.toml");
const toml = readFileSync(join(root, "wrangler.toml"), "utf8");
const firstTable = toml.search(/^\[/m);
let top = toml.slice(0, firstTable);
for (const line of B_TOML.split("\n").filter((l) => l.trim())) {
  const key = line.split("=")[0]?.trim() ?? "";
  const set = new RegExp(`^${key}\\s*=.*$`, "m");
  top = set.test(top) ? top.replace(set, line) : `${top}${line}\n\n`;
}
writeFileSync(configB, `${top}${toml.slice(firstTable)}`);
// A at a commit: a worktree of it beside the tree, sharing its installed packages and built assets.
let worktree;
if (A_REF) {
  worktree = mkdtempSync(join(tmpdir(), "warga-js-cost-a-"));
  execFileSync("git", ["worktree", "add", "--detach", worktree, A_REF], { cwd: root, stdio: "ignore" });
  for (const shared of ["node_modules", "public"]) {
    if (existsSync(join(root, shared))) {
      symlinkSync(join(root, shared), join(worktree, shared));
    }
  }
}
const removeWorktree = () => {
  if (worktree) {
    execFileSync("git", ["worktree", "remove", "--force", worktree], { cwd: root, stdio: "ignore" });
  }
};
let bundles;
try {
  bundles = await Promise.all([
    worktree
      ? bundleWorker(join(worktree, "wrangler.toml"), { script: join(worktree, "scripts/bench/entry.ts") })
      : bundleWorker("wrangler.toml", { script: "scripts/bench/entry.ts" }),
    bundleWorker(configB, { script: "scripts/bench/entry.ts" }),
  ]);
} finally {
  rmSync(configB, { force: true });
  removeWorktree();
}
// B on a copy of the bench state: two workerd processes never share a database's files.
const stateB = `${STATE_DIR}-js-cost-b`;
rmSync(stateB, { recursive: true, force: true });
cpSync(STATE_DIR, stateB, { recursive: true });
const sides = {
  A: await startWorkerd({ persistTo: STATE_DIR, bundle: bundles[0], vars: { LOG_LEVEL: "info" } }),
  B: await startWorkerd({ persistTo: stateB, bundle: bundles[1], vars: { LOG_LEVEL: B_LOG_LEVEL } }),
};
try {
  const tokens = {};
  for (const [side, server] of Object.entries(sides)) {
    tokens[side] = await signIn(server.url, "sekretaris.rt01@warga.test");
  }
  const cpu = { A: [], B: [] };
  for (let round = -1; round < ROUNDS; round++) {
    for (const side of round % 2 === 0 ? ["A", "B"] : ["B", "A"]) {
      const perRequest = await jsCostRound(sides[side], { path: PATH, n: N, token: tokens[side] });
      // Round -1 warms each side and records its tape.
      if (round >= 0) {
        cpu[side].push(perRequest);
      }
    }
  }
  console.log(`GET ${PATH}, ${ROUNDS}×${N} requests a side, D1 taped; CPU ms per request`);
  console.log(
    `A (${A_REF ? `commit ${A_REF}` : "the tree"}):  ${cpu.A.map((v) => v.toFixed(3)).join(" ")}  median ${median(cpu.A).toFixed(3)}`,
  );
  console.log(
    `B (${[A_REF ? "the tree" : "", B_TOML, B_LOG_LEVEL === "info" ? "" : `LOG_LEVEL=${B_LOG_LEVEL}`].filter(Boolean).join(", ") || "the same"}): ` +
      `${cpu.B.map((v) => v.toFixed(3)).join(" ")}  median ${median(cpu.B).toFixed(3)}`,
  );
  console.log(
    `B − A, median of the paired rounds: ${median(cpu.B.map((v, i) => v - cpu.A[i])).toFixed(3)} ms`,
  );
} finally {
  for (const server of Object.values(sides)) {
    await server.stop();
  }
  for (const bundle of bundles) {
    bundle.cleanup();
  }
  rmSync(stateB, { recursive: true, force: true });
}
