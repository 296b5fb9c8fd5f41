import { readdirSync, readFileSync, statSync } from "node:fs";
import { dirname, join, relative, resolve } from "node:path";
import { fileURLToPath } from "node:url";
import { describe, expect, it } from "vitest";

/**
 * keuangan's shape (issue 48 item 6, CONTRIBUTING "A module with sub-folders"): its areas are folders
 * (iuran/, kas/, anggaran/, kampanye/, laporan/), not prefixes of flat file names; no file passes 400
 * lines; `service.ts` is its public face only: named re-exports of the verbs other modules use, and no
 * logic of its own. This walks the files themselves.
 */
const root = resolve(dirname(fileURLToPath(import.meta.url)), "../..");
const moduleDir = join(root, "src/modules/keuangan");
const MAX_LINES = 400;
/** Folders that are not an area of the module (they hold one kind of file, not one subject). */
const NOT_AREAS = new Set(["routes"]);

function filesUnder(dir, out = []) {
  for (const name of readdirSync(dir)) {
    const path = join(dir, name);
    if (statSync(path).isDirectory()) {
      filesUnder(path, out);
    } else if (name.endsWith(".ts")) {
      out.push(path);
    }
  }
  return out;
}

const areas = () =>
  readdirSync(moduleDir).filter((n) => statSync(join(moduleDir, n)).isDirectory() && !NOT_AREAS.has(n));

/** The top-level statements of a TypeScript file with its comments taken out, one per `;`. */
function statements(source) {
  const bare = source.replace(/\/\*[\s\S]*?\*\//g, "").replace(/^\s*\/\/.*$/gm, "");
  return bare
    .split(";")
    .map((s) => s.replace(/\s+/g, " ").trim())
    .filter(Boolean);
}

const RE_EXPORT = /^export \{ ([\w\s,]+) \} from "(\.\/[\w/-]+)"$/;

describe("keuangan is folders by area", () => {
  it("has its areas as folders (the walk itself works)", () => {
    expect(areas()).toEqual(expect.arrayContaining(["anggaran", "iuran", "kampanye", "kas", "laporan"]));
  });

  it("keeps no flat file at its root named by an area's prefix, and no area's file repeats its folder's name", () => {
    const misplaced = [];
    for (const area of areas()) {
      for (const name of readdirSync(moduleDir)) {
        if (name === `${area}.ts` || name.startsWith(`${area}-`) || name === `schemas-${area}.ts`) {
          misplaced.push(name);
        }
      }
      for (const name of readdirSync(join(moduleDir, area))) {
        if (name.startsWith(`${area}-`) || name === `${area}.ts`) {
          misplaced.push(`${area}/${name}`);
        }
      }
    }
    expect(misplaced).toEqual([]);
  });

  it(`has no file over ${MAX_LINES} lines`, () => {
    const long = filesUnder(moduleDir)
      .map((file) => ({
        file: relative(moduleDir, file),
        lines: readFileSync(file, "utf8").split("\n").length - 1,
      }))
      .filter(({ lines }) => lines > MAX_LINES);
    expect(long).toEqual([]);
  });
});

describe("keuangan's service.ts is its public face only", () => {
  const face = readFileSync(join(moduleDir, "service.ts"), "utf8");

  it("is named re-exports from the module's own files and nothing else (no logic, no export *)", () => {
    const other = statements(face).filter((s) => !RE_EXPORT.test(s));
    expect(statements(face).length).toBeGreaterThan(0);
    expect(other).toEqual([]);
  });

  it("re-exports only verbs another part of src imports from it", () => {
    const named = statements(face).flatMap((s) =>
      (RE_EXPORT.exec(s)?.[1] ?? "").split(",").map((n) => n.trim()),
    );
    const users = filesUnder(join(root, "src")).filter((file) => !file.startsWith(`${moduleDir}/`));
    const imported = new Set();
    for (const file of users) {
      const text = readFileSync(file, "utf8");
      for (const m of text.matchAll(
        /import\s*(?:type\s*)?\{([^}]*)\}\s*from\s*["']([^"']+keuangan\/service)["']/g,
      )) {
        for (const name of m[1].split(",")) {
          imported.add(
            name
              .replace(/^\s*type\s+/, "")
              .split(/\s+as\s+/)[0]
              .trim(),
          );
        }
      }
    }
    expect(imported.size).toBeGreaterThan(0);
    expect(named.filter((name) => !imported.has(name))).toEqual([]);
  });
});
