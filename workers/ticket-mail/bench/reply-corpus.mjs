// Scores of the reply strippers on the corpus (workers/ticket-mail/test/corpus/*.txt), and the time
// each takes on a 1 MB body. The candidates run in workerd (Miniflare), as the Worker does:
//
//   npm run bench -- ticket-mail        (or: node workers/ticket-mail/bench/reply-corpus.mjs)
//
// "exact": equal to the expected text after whitespace normalisation; "kept≤2": every expected line
// kept with at most two extra lines; "dropped": cases with an expected line missing; "lost": cases
// where a line the sender wrote went missing (the worst error; a forward's body kept by the rules
// is expected but not the sender's, test/corpus/README.md).
import { readdirSync, readFileSync } from "node:fs";
import path from "node:path";
import { build } from "esbuild";
import { convertV4MiniflareOptions, Miniflare } from "miniflare";

const here = import.meta.dirname;
const corpusDir = path.join(here, "../test/corpus");
const files = Object.fromEntries(
  readdirSync(corpusDir)
    .filter((f) => f.endsWith(".txt"))
    .map((f) => [f, readFileSync(path.join(corpusDir, f), "utf8")]),
);

// email-reply-parser asks `module.createRequire` for the optional native re2 (absent in workerd, so
// it falls back to RegExp); node-email-reply-parser touches fs/path only when run as a CLI.
function nodeBuiltinShims() {
  return {
    name: "node-builtin-shims",
    setup(b) {
      b.onResolve({ filter: /^(?:node:)?(?:module|fs|path)$/ }, (args) => ({
        path: args.path,
        namespace: "shim",
      }));
      b.onLoad({ filter: /.*/, namespace: "shim" }, () => ({
        contents:
          "export function createRequire() { return (id) => { throw new Error('no ' + id + ' in workerd'); }; }",
        loader: "js",
      }));
    },
  };
}

const bundle = await build({
  entryPoints: [path.join(here, "candidates.ts")],
  bundle: true,
  format: "esm",
  platform: "neutral",
  mainFields: ["module", "main"],
  target: "es2022",
  write: false,
  logLevel: "error",
  plugins: [nodeBuiltinShims()],
});
// This Miniflare takes its new options shape; the v4 shape converts to it.
const mf = new Miniflare(
  convertV4MiniflareOptions({
    modules: true,
    script: bundle.outputFiles[0].text,
    compatibilityDate: "2026-11-01",
  }),
);
try {
  const response = await mf.dispatchFetch("http://bench/", { method: "POST", body: JSON.stringify(files) });
  if (!response.ok) {
    throw new Error(`candidates worker answered ${response.status}: ${await response.text()}`);
  }
  const { cases, results, timings } = await response.json();
  const pct = (n) => `${((100 * n) / cases).toFixed(1)}%`.padStart(6);
  console.log(`reply corpus: ${cases} cases (goal: exact ≥ 90%, kept≤2 ≥ 97%, sender text lost 0)\n`);
  console.log(`${"candidate (stripper + HTML converter)".padEnd(48)} exact   kept≤2  dropped  lost`);
  for (const [name, { summary }] of Object.entries(results)) {
    console.log(
      `${name.padEnd(48)} ${pct(summary.exact)}  ${pct(summary.keptWithin2)}  ${String(summary.dropped).padStart(4)}  ${String(summary.senderLost).padStart(4)} (${pct(summary.senderLost).trim()})`,
    );
  }
  const verbose = process.argv.includes("--verbose");
  for (const [name, { failures }] of Object.entries(results)) {
    if (verbose || name.startsWith("warga + warga")) {
      console.log(`\nnot exact with ${name}:`);
      for (const f of failures) {
        console.log(
          `  ${f.name}: ${f.extra} extra line(s)${f.missing.length ? `, missing ${JSON.stringify(f.missing)}` : ""}` +
            (f.senderLost.length ? `, sender text lost ${JSON.stringify(f.senderLost)}` : ""),
        );
      }
    }
  }
  console.log("\n1 MB body (best of 5, ms; goal < 50):");
  for (const [name, ms] of Object.entries(timings)) {
    console.log(`  ${name.padEnd(44)} ${ms.toFixed(1).padStart(8)}`);
  }
} finally {
  await mf.dispose();
}
