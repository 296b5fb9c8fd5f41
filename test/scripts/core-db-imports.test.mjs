import { readdirSync, readFileSync } from "node:fs";
import { dirname, join, relative, resolve } from "node:path";
import { fileURLToPath } from "node:url";
import { describe, expect, it } from "vitest";

/**
 * The storage layer knows no request feature (ADR 0048): nothing under src/core/db imports
 * src/core/http or a platform feature (src/platform, ADR 0051: idempotency, conditional requests), by
 * name, by namespace or for its types. biome.json says the
 * same for the editor; this walks the files themselves, whatever the lint configuration says.
 */
const root = resolve(dirname(fileURLToPath(import.meta.url)), "../..");
const db = join(root, "src/core/db");
const FORBIDDEN = ["src/core/http/", "src/platform/"];
const IMPORT_RE =
  /(?:^|\n)\s*(?:import|export)\b[^;]*?\bfrom\s*["']([^"']+)["']|import\(\s*["']([^"']+)["']\s*\)/g;

function importsOf(file) {
  const text = readFileSync(file, "utf8");
  return [...text.matchAll(IMPORT_RE)].map((m) => m[1] ?? m[2]).filter((s) => s.startsWith("."));
}

describe("src/core/db imports no request feature", () => {
  it("finds the imports it checks (the walk itself works)", () => {
    expect(importsOf(join(db, "platform.ts"))).toContain("./handles");
  });

  it("resolves no import of any file under src/core/db into core/http or src/platform", () => {
    const offending = [];
    for (const name of readdirSync(db).filter((n) => n.endsWith(".ts"))) {
      const file = join(db, name);
      for (const spec of importsOf(file)) {
        const target = `${relative(root, resolve(dirname(file), spec))}/`;
        if (FORBIDDEN.some((prefix) => target.startsWith(prefix))) {
          offending.push(`${name} -> ${spec}`);
        }
      }
    }
    expect(offending).toEqual([]);
  });
});
