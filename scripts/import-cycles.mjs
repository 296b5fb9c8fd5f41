#!/usr/bin/env node
/**
 * Import cycles among src/**\/*.ts (issue 48, item 5; docs/adr/0051-a-small-kernel.md).
 *
 * Every relative import counts: `import`, `import type`, `export … from` and `import("…")`. Biome's
 * noImportCycles skips type-only imports; this does not, because a cycle of types is still two files
 * that cannot be understood (or moved) one without the other.
 *
 * Prints each strongly connected group of files (files that reach each other) with one shortest cycle
 * through it, and exits 1 when there is any. `node scripts/import-cycles.mjs [--json]`.
 * test/scripts/import-cycles.test.mjs asserts there are none.
 */
import { existsSync, readdirSync, readFileSync, statSync } from "node:fs";
import { dirname, join, relative, resolve } from "node:path";
import { fileURLToPath } from "node:url";

const ROOT = resolve(dirname(fileURLToPath(import.meta.url)), "..");

/** Specifiers of `import … from`, `export … from`, side-effect `import "…"` and `import("…")`. */
const IMPORT_RE =
  /(?:^|[\n;])\s*(?:import|export)\b(?:[^;"'`]|"[^"]*"|'[^']*')*?\bfrom\s*["']([^"']+)["']|(?:^|[\n;])\s*import\s*["']([^"']+)["']|\bimport\(\s*["']([^"']+)["']\s*\)/g;

/** Comments out, so a commented import or an example in a doc comment is not an edge. */
function stripComments(text) {
  return text.replace(/\/\*[\s\S]*?\*\//g, "").replace(/(^|[^:"'`\\])\/\/.*$/gm, "$1");
}

function walk(dir, out = []) {
  for (const name of readdirSync(dir)) {
    const path = join(dir, name);
    if (statSync(path).isDirectory()) {
      walk(path, out);
    } else if (name.endsWith(".ts") && !name.endsWith(".d.ts")) {
      out.push(path);
    }
  }
  return out;
}

/** The file a relative specifier names, as TypeScript's bundler resolution finds it (or null). */
function resolveSpec(from, spec) {
  const base = resolve(dirname(from), spec);
  const candidates = [
    base,
    `${base}.ts`,
    `${base}.tsx`,
    base.replace(/\.js$/, ".ts"),
    join(base, "index.ts"),
    join(base, "index.tsx"),
  ];
  return candidates.find((p) => existsSync(p) && statSync(p).isFile()) ?? null;
}

/** The relative imports of one file, resolved to files. */
export function importsOf(file) {
  const text = stripComments(readFileSync(file, "utf8"));
  const specs = [...text.matchAll(IMPORT_RE)].map((m) => m[1] ?? m[2] ?? m[3]);
  const targets = new Set();
  for (const spec of specs) {
    if (spec.startsWith(".")) {
      const target = resolveSpec(file, spec);
      if (target) {
        targets.add(target);
      }
    }
  }
  return [...targets];
}

/** The import graph of src/ (or `dir`): repository-relative path → the paths it imports. */
export function importGraph(dir = join(ROOT, "src")) {
  const graph = new Map();
  for (const file of walk(dir)) {
    graph.set(
      relative(ROOT, file),
      importsOf(file).map((t) => relative(ROOT, t)),
    );
  }
  return graph;
}

/** Tarjan's strongly connected components with more than one file (or a file importing itself). */
function groups(graph) {
  let next = 0;
  const index = new Map();
  const low = new Map();
  const stack = [];
  const onStack = new Set();
  const found = [];
  const visit = (v) => {
    index.set(v, next);
    low.set(v, next);
    next++;
    stack.push(v);
    onStack.add(v);
    for (const w of graph.get(v) ?? []) {
      if (!index.has(w)) {
        visit(w);
        low.set(v, Math.min(low.get(v), low.get(w)));
      } else if (onStack.has(w)) {
        low.set(v, Math.min(low.get(v), index.get(w)));
      }
    }
    if (low.get(v) === index.get(v)) {
      const group = [];
      let w;
      do {
        w = stack.pop();
        onStack.delete(w);
        group.push(w);
      } while (w !== v);
      if (group.length > 1 || (graph.get(v) ?? []).includes(v)) {
        found.push(group.sort());
      }
    }
  };
  for (const v of [...graph.keys()].sort()) {
    if (!index.has(v)) {
      visit(v);
    }
  }
  return found;
}

/** One shortest cycle through `start` inside its group (breadth-first). */
function shortestCycle(graph, group, start) {
  const members = new Set(group);
  const previous = new Map([[start, null]]);
  const queue = [start];
  while (queue.length > 0) {
    const v = queue.shift();
    for (const w of graph.get(v) ?? []) {
      if (!members.has(w)) {
        continue;
      }
      if (w === start) {
        const path = [];
        for (let at = v; at !== null; at = previous.get(at)) {
          path.unshift(at);
        }
        return [...path, start];
      }
      if (!previous.has(w)) {
        previous.set(w, v);
        queue.push(w);
      }
    }
  }
  return [start];
}

/** The cycles of the graph: one entry per group of files that import each other. */
export function importCycles(graph = importGraph()) {
  return groups(graph).map((group) => ({ files: group, cycle: shortestCycle(graph, group, group[0]) }));
}

if (process.argv[1] && resolve(process.argv[1]) === fileURLToPath(import.meta.url)) {
  const cycles = importCycles();
  if (process.argv.includes("--json")) {
    console.log(JSON.stringify(cycles, null, 2));
  } else {
    for (const { files, cycle } of cycles) {
      console.log(`${files.length} files: ${cycle.join(" -> ")}`);
    }
    console.log(`${cycles.length} import cycle(s) among src/**/*.ts`);
  }
  process.exitCode = cycles.length > 0 ? 1 : 0;
}
