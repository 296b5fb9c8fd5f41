import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { basename, join } from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { importCycles, importGraph } from "../../scripts/import-cycles.mjs";

/**
 * Issue 48, item 5 (docs/adr/0051-a-small-kernel.md): no two files of src/ import each other, through
 * any chain, type-only imports included (Biome's noImportCycles does not count those).
 * `node scripts/import-cycles.mjs` prints the cycles this finds.
 */
const scratch = mkdtempSync(join(tmpdir(), "import-cycles-"));
afterAll(() => rmSync(scratch, { recursive: true, force: true }));

function tree(files) {
  const dir = mkdtempSync(join(scratch, "src-"));
  for (const [name, text] of Object.entries(files)) {
    mkdirSync(join(dir, name, ".."), { recursive: true });
    writeFileSync(join(dir, name), text);
  }
  return dir;
}

/** A file's path inside the scratch tree `dir` (the finder names files relative to the repository). */
const inside = (dir, file) => file.slice(file.indexOf(basename(dir)) + basename(dir).length + 1);

describe("the cycle finder (so the assertion below cannot pass because it sees nothing)", () => {
  it("finds a cycle made only of type imports, through a folder's index and a re-export", () => {
    const dir = tree({
      "a.ts": 'import type { B } from "./b";\nexport type A = { b: B };\n',
      "b/index.ts": 'export type { C as B } from "../c";\n',
      "c.ts": 'import type { A } from "./a";\nexport type C = { a?: A };\n',
      "d.ts": 'import type { A } from "./a";\nexport type D = A;\n',
    });
    const cycles = importCycles(importGraph(dir));
    expect(cycles).toHaveLength(1);
    expect(cycles[0].files.map((f) => inside(dir, f)).sort()).toEqual(["a.ts", "b/index.ts", "c.ts"]);
    expect(cycles[0].cycle[0]).toBe(cycles[0].cycle.at(-1));
  });

  it("counts a dynamic import, and not an import written in a comment", () => {
    const dir = tree({
      "a.ts": 'export const load = () => import("./b");\n',
      "b.ts": '// import { load } from "./a";\nexport const b = 1;\n',
      "c.ts": 'export const load = () => import("./d");\n',
      "d.ts": 'import { load } from "./c";\nexport const d = load;\n',
    });
    const cycles = importCycles(importGraph(dir));
    expect(cycles.map((c) => c.files.length)).toEqual([2]);
    expect(cycles[0].files.map((f) => inside(dir, f)).sort()).toEqual(["c.ts", "d.ts"]);
  });

  it("reads the real tree: it sees core/context.ts's type-only import of core/env.ts", () => {
    const graph = importGraph();
    expect(graph.get("src/core/context.ts")).toContain("src/core/env.ts");
    expect(graph.size).toBeGreaterThan(300);
  });
});

describe("src/ has no import cycles (issue 48, item 5)", () => {
  it("finds none among src/**/*.ts, type-only imports included", () => {
    expect(importCycles().map((c) => c.cycle.join(" -> "))).toEqual([]);
  });
});
