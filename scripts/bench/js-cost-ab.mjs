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
//
// JS_COST_D1=real leaves D1 untaped: each round loads the route over HTTP (8 connections, N requests,
// as the `api` bench does) and takes its workerd's CPU per request, D1's local database included (it
// runs in the same process). So a change in what the route asks of D1 (a statement fewer) shows too;
// JS_COST_PATH=gate loads the gate webhook's refusal path (the `api` bench's fixture) instead of a GET:
//
//   JS_COST_A_REF=HEAD JS_COST_D1=real JS_COST_PATH=gate JS_COST_N=2000 node scripts/bench/js-cost-ab.mjs
import "./state.mjs";
import { execFileSync } from "node:child_process";
import { cpSync, existsSync, mkdtempSync, readFileSync, rmSync, symlinkSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { root } from "../lib/dev-server.mjs";
import { load } from "../lib/load.mjs";
import { bundleWorker, startWorkerd } from "../lib/workerd.mjs";
import { STATE_DIR } from "../lib/wrangler.mjs";
import { clearBenchGateEvents, gateFixture, signIn } from "./api-routes.mjs";
import { jsCostRound, median } from "./js-cost.mjs";
import { prepareBenchState } from "./server.mjs";

const A_REF = process.env.JS_COST_A_REF;
// With A at a commit, B is the tree as it is unless a setting is asked for too.
const B_TOML = process.env.JS_COST_B_TOML ?? (A_REF ? "" : "keep_names = true");
const B_LOG_LEVEL = process.env.JS_COST_B_LOG_LEVEL ?? "info";
const PATH = process.env.JS_COST_PATH ?? "/api/kependudukan/units/seed-unit-rt01-a1";
const N = Number(process.env.JS_COST_N ?? 3000);
const ROUNDS = Number(process.env.JS_COST_ROUNDS ?? 8);
const REAL_D1 = process.env.JS_COST_D1 === "real";

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
// Each side on its own copy of the bench state, made afresh: two workerd processes never share a
// database's files, and neither side starts from a state the other has not (nor leaves it grown).
const states = { A: `${STATE_DIR}-js-cost-a`, B: `${STATE_DIR}-js-cost-b` };
for (const state of Object.values(states)) {
  rmSync(state, { recursive: true, force: true });
  cpSync(STATE_DIR, state, { recursive: true });
}
const sides = {
  A: await startWorkerd({ persistTo: states.A, bundle: bundles[0], vars: { LOG_LEVEL: "info" } }),
  B: await startWorkerd({ persistTo: states.B, bundle: bundles[1], vars: { LOG_LEVEL: B_LOG_LEVEL } }),
};
try {
  const tokens = {};
  const targets = {};
  for (const [side, server] of Object.entries(sides)) {
    tokens[side] = await signIn(server.url, "sekretaris.rt01@warga.test");
    const auth = { Authorization: `Bearer ${tokens[side]}` };
    if (REAL_D1 && PATH === "gate") {
      await clearBenchGateEvents(server.mf);
      const gate = await gateFixture(server.url, auth);
      targets[side] = { url: `${server.url}/api/gate-hardware/webhook`, method: "POST", ...gate };
    } else {
      targets[side] = { url: `${server.url}${PATH}`, headers: auth };
    }
  }
  /** One round over HTTP with D1 as it is: the side's workerd CPU per request. */
  const realRound = async (server, target) => {
    const cpu0 = server.cpu();
    const r = await load({ ...target, amount: N });
    if (r.non2xx > 0 || r.errors > 0) {
      throw new Error(`${target.url}: ${r.non2xx} non-2xx answers, ${r.errors} errors`);
    }
    return ((server.cpu() - cpu0) * 1000) / r.total;
  };
  const cpu = { A: [], B: [] };
  for (let round = -1; round < ROUNDS; round++) {
    for (const side of round % 2 === 0 ? ["A", "B"] : ["B", "A"]) {
      const perRequest = REAL_D1
        ? await realRound(sides[side], targets[side])
        : await jsCostRound(sides[side], { path: PATH, n: N, token: tokens[side] });
      // Round -1 warms each side and records its tape.
      if (round >= 0) {
        cpu[side].push(perRequest);
      }
    }
  }
  console.log(
    `${REAL_D1 && PATH === "gate" ? "POST gate webhook (refusal)" : `GET ${PATH}`}, ${ROUNDS}×${N} requests a side, ` +
      `${REAL_D1 ? "over HTTP, D1 as it is" : "D1 taped"}; CPU ms per request`,
  );
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
  for (const state of Object.values(states)) {
    rmSync(state, { recursive: true, force: true });
  }
}
