import { execFile } from "node:child_process";
import { copyFileSync, mkdirSync, readdirSync, readFileSync, writeFileSync } from "node:fs";
import { createRequire } from "node:module";
import { join } from "node:path";
import { pathToFileURL } from "node:url";
import { promisify } from "node:util";
import { afterAll, beforeAll, describe, expect, inject, it } from "vitest";
// @ts-expect-error: a plain .mjs helper shared with the benchmark scripts.
import { projectEnv, root } from "../../scripts/lib/dev-server.mjs";
import { type E2eServer, startSeededServer } from "./server";

/**
 * The API as a client developer meets it (issue 42, item 6): a TypeScript client generated from the
 * running server's `/openapi.json` with openapi-typescript, a small program written against it with
 * openapi-fetch (test/e2e/client/program.ts) compiled with `tsc --strict`, then run against the server.
 * The server is the deploy bundle on workerd, over fresh local databases migrated and given the demo
 * seed (test/e2e/server.ts, shared with the web journeys); letter PDFs render when Chromium is installed
 * (scripts/lib/chromium.mjs), otherwise the program downloads only the xlsx export.
 */
const run = promisify(execFile);
const chromium = inject("chromium");
const OUT = join(root, ".cache", "client");

let server: E2eServer | undefined;
let unavailable: string | undefined;

beforeAll(async () => {
  // Browser Rendering launches the Chrome wrapper scripts/setup-chromium.sh put in the project's cache.
  process.env.XDG_CACHE_HOME = join(root, ".cache");
  // No skip when a migration or the seed fails: that throws here, a failure of the project.
  ({ server, unavailable } = await startSeededServer({ browser: chromium.ready }));
}, 600_000);

afterAll(async () => {
  await server?.stop();
});

/**
 * openapi-typescript from its own workspace (tools/client-check), where npm installs it beside the
 * TypeScript 5 it declares as a peer (package-lock.json: tools/client-check/node_modules/openapi-typescript,
 * not hoisted), so a bare import from here finds nothing. Resolved from there, it is found either way.
 */
async function loadOpenapiTS() {
  const entry = createRequire(join(root, "tools", "client-check", "package.json")).resolve(
    "openapi-typescript",
  );
  const mod: typeof import("openapi-typescript") = await import(pathToFileURL(entry).href);
  return { openapiTS: mod.default, astToString: mod.astToString, entry };
}

/**
 * openapi-typescript's own recipe for binary bodies: a string schema of `format: binary` (or, in OpenAPI
 * 3.1's words, with a `contentMediaType`) is a `Blob`, as a browser or Node 22 sends and receives it. Its
 * `transform` hook takes nodes of TypeScript 5's compiler API, the copy openapi-typescript itself loads
 * (tools/client-check: the project compiles with TypeScript 7, which has no such API).
 */
async function generateTypes(document: unknown): Promise<string> {
  const { openapiTS, astToString, entry } = await loadOpenapiTS();
  const ts = createRequire(entry)("typescript");
  const blob = ts.factory.createTypeReferenceNode(ts.factory.createIdentifier("Blob"));
  const ast = await openapiTS(document as Parameters<typeof openapiTS>[0], {
    transform(schema) {
      const binary =
        schema.type === "string" &&
        (schema.format === "binary" ||
          (typeof schema.contentMediaType === "string" && !schema.contentMediaType.endsWith("json")));
      return binary ? blob : undefined;
    },
  });
  return astToString(ast);
}

describe("a client generated from /openapi.json", () => {
  it("compiles under tsc --strict and runs: a Blob upload, binary downloads, a list to its end, problems by code", async (t) => {
    t.skip(unavailable !== undefined, unavailable);
    const url = (server as { url: string }).url;
    const document = await (await fetch(`${url}/openapi.json`)).json();

    mkdirSync(OUT, { recursive: true });
    writeFileSync(join(OUT, "schema.d.ts"), await generateTypes(document));
    copyFileSync(join(root, "test", "e2e", "client", "program.ts"), join(OUT, "program.ts"));

    // The project's TypeScript 7 (`npx tsc`), strict, with the DOM's fetch, Blob and FormData as a console has them.
    const tsc = join(root, "node_modules", ".bin", "tsc");
    const compiled = await run(
      tsc,
      [
        // The file alone, not the project's tsconfig.json (TypeScript 7 refuses both unless told).
        "--ignoreConfig",
        "--strict",
        "--noEmit",
        "--target",
        "es2022",
        "--module",
        "nodenext",
        "--lib",
        "es2023,dom",
        "--types",
        "node",
        join(OUT, "program.ts"),
      ],
      { cwd: root, env: projectEnv() },
    ).then(
      () => "",
      (error: { stdout?: string; stderr?: string }) => `${error.stdout ?? ""}${error.stderr ?? ""}`,
    );
    expect(compiled, "the program compiles against the generated types").toBe("");

    // Node 22 (the project's pinned `node`) runs the TypeScript as written, its types stripped.
    const { stdout } = await run(
      "node",
      ["--experimental-strip-types", "--no-warnings", join(OUT, "program.ts")],
      {
        cwd: root,
        env: projectEnv({ WARGA_API_URL: url, WARGA_PDF: chromium.ready ? "1" : "0" }),
        timeout: 120_000,
      },
    );
    const seen = JSON.parse(stdout.trim().split("\n").at(-1) ?? "{}");
    expect(seen.upload).toMatchObject({ status: 201, contentType: "image/png" });
    expect(seen.xlsx.status).toBe(200);
    if (chromium.ready) {
      expect(seen.pdf.status).toBe(200);
    }
    expect(seen.paging.letters).toBeGreaterThan(2);
    expect(seen.problems).toMatchObject({ 404: "not_found", 409: "letter_not_ready" });
  }, 300_000);
});

describe("the deploy bundle's operation ids", () => {
  // wrangler.toml bundles with `keep_names = false` (ADR 0015, thirteenth pass): esbuild then sets no
  // `name` at run time, and a class whose name another top-level symbol of the bundle already holds is
  // renamed (`CreateVisitor2`). An operation's id is its endpoint class's name (core/http/openapi-access.ts),
  // so a renamed class would change a client's method name; every id must name a class of the source.
  it("are the names of endpoint classes as the source declares them", async (t) => {
    t.skip(unavailable !== undefined, unavailable);
    const url = (server as { url: string }).url;
    const document = (await (await fetch(`${url}/openapi.json`)).json()) as {
      paths: Record<string, Record<string, { operationId?: string }>>;
    };
    const source = (readdirSync(join(root, "src"), { recursive: true, encoding: "utf8" }) as string[])
      .filter((f) => f.endsWith(".ts"))
      .map((f) => readFileSync(join(root, "src", f), "utf8"))
      .join("\n");
    const declared = new Set([...source.matchAll(/\bclass ([A-Z][A-Za-z0-9]*)\b/g)].map((m) => m[1]));
    const ids = Object.values(document.paths).flatMap((ops) =>
      Object.values(ops).map((op) => op.operationId ?? "(none)"),
    );
    expect(ids.length).toBeGreaterThan(200);
    const renamed = ids.filter((id) => !declared.has(id.charAt(0).toUpperCase() + id.slice(1)));
    expect(renamed).toEqual([]);
  }, 60_000);
});
