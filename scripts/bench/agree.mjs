// Two runs of the `routes` table side by side (issue 49, item 6: a quiet run and a loaded one should agree
// on met / not met):
//
//   BENCH_ROWS_OUT=quiet.json npm run bench -- routes
//   yes > /dev/null & yes > /dev/null & BENCH_ROWS_OUT=loaded.json npm run bench -- routes; pkill -x yes
//   node scripts/bench/agree.mjs quiet.json loaded.json
//
// Prints every row whose verdicts differ, with its figure in lines (what it adds over its floor divided
// by its allowance: 1 is the line), then how many rows agree. Exits 1 if any differ.
import { readFileSync } from "node:fs";

const files = process.argv.slice(2);
if (files.length < 2) {
  console.error("usage: node scripts/bench/agree.mjs a.json b.json [c.json …]");
  process.exit(2);
}
const key = (r) => `GET ${r.path}${r.label ? ` ?${r.label}` : ""} as ${r.role}`;
const runs = files.map((f) => new Map(JSON.parse(readFileSync(f, "utf8")).map((r) => [key(r), r])));
const judged = [...runs[0].keys()].filter((k) =>
  runs.every((run) => run.has(k) && run.get(k).kind !== "heavy"),
);
const differ = judged.filter((k) => new Set(runs.map((run) => run.get(k).met)).size > 1);
for (const k of differ) {
  const lines = runs.map((run) => run.get(k).line.toFixed(2));
  console.log(
    `${k}: ${runs.map((run) => (run.get(k).met ? "met" : "NOT met")).join(" / ")} (${lines.join(" / ")} of its line)`,
  );
}
const met = runs.map((run) => judged.filter((k) => run.get(k).met).length);
console.log(
  `${judged.length - differ.length} of ${judged.length} judged rows agree across ${files.length} runs; met per run: ${met.join(", ")}`,
);
process.exit(differ.length ? 1 : 0);
