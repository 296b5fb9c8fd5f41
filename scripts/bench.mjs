// `npm run bench [suite…]`: runs the benchmark suites (all by default) and prints ratios measured
// side by side in one run. Absolute numbers vary with the machine; compare the ratios, and CPU per
// request (the `api` suite's table), which is steadier than latency on a shared machine.
import { spawnSync } from "node:child_process";
import { existsSync, readdirSync } from "node:fs";
import { join } from "node:path";
import { root } from "./lib/dev-server.mjs";
import { resetLocalRateLimits } from "./lib/wrangler.mjs";

/** In-process suites of the main API, then each Worker's own bench scripts as child processes. */
const suites = {
  api: () => import("./bench/api-routes.mjs").then((m) => m.run()),
  identity: () => import("./bench/auth-enumeration.mjs").then((m) => m.run()),
  musyawarah: () => import("./bench/poll-votes.mjs").then((m) => m.run()),
  passwords: () => import("./bench/passwords.mjs").then((m) => m.run()),
  surat: () => import("./bench/surat-pdf.mjs").then((m) => m.run()),
  support: () => import("./bench/support-tickets.mjs").then((m) => m.run()),
  finance: () => import("./bench/finance.mjs").then((m) => m.run()),
  registry: () => import("./bench/registry.mjs").then((m) => m.run()),
  hierarchy: () => import("./bench/hierarchy.mjs").then((m) => m.run()),
  "read-path": () => import("./bench/read-path.mjs").then((m) => m.run()),
};
for (const dir of readdirSync(join(root, "workers"), { withFileTypes: true })) {
  const bench = join(root, "workers", dir.name, "bench");
  if (dir.isDirectory() && existsSync(bench)) {
    suites[dir.name] = async () => {
      for (const file of readdirSync(bench).filter((f) => f.endsWith(".mjs"))) {
        const run = spawnSync(process.execPath, [join(bench, file)], { cwd: root, stdio: "inherit" });
        if (run.status !== 0) {
          throw new Error(`${dir.name}/${file} exited with ${run.status}`);
        }
      }
    };
  }
}

const wanted = process.argv.slice(2).filter((a) => !a.startsWith("-"));
for (const [name, run] of Object.entries(suites)) {
  if (wanted.length && !wanted.includes(name)) {
    continue;
  }
  console.log(`\n=== bench: ${name} ===`);
  resetLocalRateLimits();
  await run();
}
