import { execFile } from "node:child_process";
import { existsSync, mkdirSync, rmSync, writeFileSync } from "node:fs";
import { join, relative, resolve } from "node:path";
import { fileURLToPath } from "node:url";
import { promisify } from "node:util";
import { afterAll, beforeAll, describe, expect, it } from "vitest";

/**
 * Issue 48, item 2: the doors to another tenant's data are closed by the type system and by lint rules
 * that cannot be slipped (docs/adr/0050-isolation-by-types-and-typed-manifests.md). Each case below is a
 * deliberately WRONG line a module, page or Durable Object might write; it is written into a throw-away
 * folder inside src/ (so biome.json's path overrides and the repository's compiler options apply), and
 * the whole set is compiled once with `tsc --noEmit` (the TypeScript 7 compiler `npm run typecheck`
 * runs) and linted once with `biome lint`. Every wrong case must fail with its rule's name; the one
 * correct snippet must pass both, so the test cannot pass because nothing ran.
 *
 * In Node (the scripts project), not in workerd: it runs the compiler and the linter as processes.
 */

const root = fileURLToPath(new URL("../../", import.meta.url));
const run = promisify(execFile);
const tag = `zz-isolation-doors-${process.pid}`;
const dirs = {
  module: join(root, "src/modules", tag),
  page: join(root, "src/pages", tag),
  durable: join(root, "src/durable", tag),
  core: join(root, "src/core", tag),
  platform: join(root, "src/platform", tag),
};

/** The fake module's own tables: a manifest may name these, by their column objects. */
const TABLES = `import { sqliteTable, text } from "drizzle-orm/sqlite-core";

export const doorUnits = sqliteTable("door_units", {
  id: text("id").primaryKey(),
  block: text("block").notNull(),
  createdBy: text("created_by"),
  photoFileId: text("photo_file_id"),
});

export const doorNotes = sqliteTable("door_notes", {
  id: text("id").primaryKey(),
  body: text("body").notNull(),
});
`;

/**
 * `where`: the folder; `check`: which tool must refuse it; `expect`: what its diagnostic must name
 * (the TypeScript error code, or the Biome rule or plugin name), on the case's own file.
 */
const CASES = [
  // Item 3: typed manifests. A column renamed in tables.ts is a compile error in the manifest.
  {
    name: "manifest names a column the table does not have (a renamed column)",
    where: "module",
    check: "tsc",
    expect: ["TS2551", "blok"],
    code: `import { personalColumns, personalData } from "../../core/module";
import { doorUnits } from "./tables";

export const wrong = personalData(personalColumns(doorUnits, { other: [doorUnits.blok] }));
`,
  },
  {
    name: "manifest classifies another table's column under this table",
    where: "module",
    check: "tsc",
    expect: ["TS2322", "door_notes"],
    code: `import { personalColumns, personalData } from "../../core/module";
import { doorNotes, doorUnits } from "./tables";

export const wrong = personalData(personalColumns(doorUnits, { personal: [doorNotes.body] }));
`,
  },
  {
    name: "manifest written by hand with string column names, not built by personalData()",
    where: "module",
    check: "tsc",
    expect: ["TS2322", "PersonalDataManifest"],
    code: `import type { PersonalDataManifest } from "../../core/module";

export const wrong: PersonalDataManifest = { door_units: { personal: ["block"], other: ["id"] } };
`,
  },
  {
    name: "file reference written as a string, not a column object",
    where: "module",
    check: "tsc",
    expect: ["TS2345"],
    code: `import { fileReference } from "../../core/module";

export const wrong = [fileReference("photo_file_id")];
`,
  },
  // Item 2(d): a route handler's c is Context<RouteEnv>: no slot binding, whatever the variable is called.
  {
    name: "route handler reads a tenant slot binding from c.env",
    where: "module",
    check: "tsc",
    expect: ["TS2339", "TENANT_DB_01"],
    code: `import type { Context } from "hono";
import type { RouteEnv } from "../../core/env";

export const wrong = (c: Context<RouteEnv>) => c.env.TENANT_DB_01;
`,
  },
  {
    name: "route handler under another name reads the platform database binding",
    where: "module",
    check: "tsc",
    expect: ["TS2339", "PLATFORM_DB"],
    code: `import type { Context } from "hono";
import type { RouteEnv } from "../../core/env";

export const wrong = (context: Context<RouteEnv>) => context.env.PLATFORM_DB;
`,
  },
  {
    name: "module widens c back by naming core's full HonoEnv",
    where: "module",
    check: "biome",
    expect: ["no-bindings-in-modules"],
    code: `import type { Context } from "hono";
import type { HonoEnv, RouteEnv } from "../../core/env";

export const wrong = (c: Context<RouteEnv>) => (c as unknown as Context<HonoEnv>).env;
`,
  },
  {
    name: "module casts c.env to the global Env of wrangler types",
    where: "module",
    check: "biome",
    expect: ["no-bindings-in-modules"],
    code: `import type { Context } from "hono";
import type { RouteEnv } from "../../core/env";

export const wrong = (c: Context<RouteEnv>) => (c.env as unknown as Env).TENANT_DB_01;
`,
  },
  // Item 2(a): cloudflare:workers' env holds every binding.
  {
    name: "module imports env from cloudflare:workers",
    where: "module",
    check: "biome",
    expect: ["lint/style/noRestrictedImports", "cloudflare:workers"],
    code: `import { env } from "cloudflare:workers";

export const wrong = env;
`,
  },
  {
    name: "page imports env from cloudflare:workers",
    where: "page",
    check: "biome",
    expect: ["lint/style/noRestrictedImports", "cloudflare:workers"],
    code: `import { env } from "cloudflare:workers";

export const wrong = env;
`,
  },
  {
    name: "Durable Object imports env from cloudflare:workers",
    where: "durable",
    check: "biome",
    expect: ["lint/style/noRestrictedImports", "cloudflare:workers"],
    code: `import { env } from "cloudflare:workers";

export const wrong = env;
`,
  },
  // Item 2(b): a namespace import takes every name, so the name rules cannot see it.
  {
    name: "Durable Object takes cloudflare:workers as a namespace (cf.env)",
    where: "durable",
    check: "biome",
    expect: ["no-namespace-imports"],
    code: `import * as cf from "cloudflare:workers";

export const wrong = cf.env;
`,
  },
  {
    name: "module takes core's context builders as a namespace (contexts.systemPlatformCtx)",
    where: "module",
    check: "biome",
    expect: ["no-namespace-imports"],
    code: `import * as contexts from "../../core/tenancy/contexts";

export const wrong = contexts.systemPlatformCtx;
`,
  },
  {
    name: "module takes the platform schema as a namespace (schema.users, identity's table)",
    where: "module",
    check: "biome",
    expect: ["no-namespace-imports"],
    code: `import * as schema from "../../core/db/platform-schema";

export const wrong = schema.users;
`,
  },
  {
    name: "module takes core/env as a namespace (env.loadConfig next to the Bindings type)",
    where: "module",
    check: "biome",
    expect: ["no-namespace-imports"],
    code: `import * as coreEnv from "../../core/env";

export const wrong = coreEnv.loadConfig;
`,
  },
  {
    name: "module imports a system-wide context builder by name (the rule the namespace case slips)",
    where: "module",
    check: "biome",
    expect: ["lint/style/noRestrictedImports", "core/jobs.ts"],
    code: `import { systemPlatformCtx } from "../../core/tenancy/contexts";

export const wrong = systemPlatformCtx;
`,
  },
  // Item 2(c): a closed community's database, outside its two readers.
  {
    name: "module outside the close and the archive imports closedTenantCtx",
    where: "module",
    check: "biome",
    expect: ["no-closed-tenant-ctx"],
    code: `import { closedTenantCtx } from "../../core/tenancy/contexts";

export const wrong = closedTenantCtx;
`,
  },
  // Item 5: a small kernel (docs/adr/0051-a-small-kernel.md). Core imports no platform feature; a
  // platform feature is reached only through its public face (src/platform/<feature>/index.ts).
  {
    name: "kernel imports a platform feature (core names conditional requests' builder)",
    where: "core",
    check: "biome",
    expect: ["lint/style/noRestrictedImports", "The kernel imports no platform feature"],
    code: `import { versioned } from "../../platform/conditional";

export const wrong = versioned;
`,
  },
  {
    name: "module reaches into a platform feature's internals, past its public face",
    where: "module",
    check: "biome",
    expect: ["lint/style/noRestrictedImports", "only through its public face"],
    code: `import { VersionedWrite } from "../../platform/conditional/write-guard";

export const wrong = VersionedWrite;
`,
  },
  {
    name: "platform feature reaches into another feature's internals (the file sweep's own file)",
    where: "platform",
    check: "biome",
    expect: [
      "lint/style/noRestrictedImports",
      "Another platform feature is reached only through its public face",
    ],
    code: `import { sweepUnattachedFiles } from "../uploads/sweep";

export const wrong = sweepUnattachedFiles;
`,
  },
];

/** A module written the way CONTRIBUTING says: it must compile and lint clean. */
const CORRECT = `import type { Context } from "hono";
import type { RouteEnv } from "../../core/env";
import { tenantCtx } from "../../core/http/access";
import { fileReference, personalColumns, personalData } from "../../core/module";
import { IDEMPOTENCY_HEADER } from "../../platform/idempotency";
import { doorNotes, doorUnits } from "./tables";

export const doorPersonalData = personalData(
  personalColumns(doorUnits, {
    subjects: [doorUnits.createdBy],
    other: [doorUnits.id, doorUnits.block, doorUnits.photoFileId],
  }),
  personalColumns(doorNotes, { other: [doorNotes.id, doorNotes.body] }),
);

export const doorFileReferences = [fileReference(doorUnits.photoFileId)];

export function handle(c: Context<RouteEnv>) {
  const ctx = tenantCtx(c);
  return { tenant: ctx.tenant.id, app: ctx.env.APP_URL, url: c.env.APP_URL, header: IDEMPOTENCY_HEADER };
}
`;

const fileOf = (i) =>
  i === "correct" ? join(dirs.module, "correct.ts") : join(dirs[CASES[i].where], `case${i}.ts`);
const rel = (path) => relative(root, path).split("\\").join("/");

/** Diagnostics per repository-relative file: `{ tool, text }`. */
const found = new Map();
function add(file, tool, text) {
  const list = found.get(file) ?? [];
  list.push({ tool, text });
  found.set(file, list);
}

async function output(command, args) {
  try {
    const { stdout, stderr } = await run(command, args, { cwd: root, maxBuffer: 64 * 1024 * 1024 });
    return `${stdout}\n${stderr}`;
  } catch (error) {
    // Both tools exit non-zero when they find something: that is the point here.
    return `${error.stdout ?? ""}\n${error.stderr ?? ""}`;
  }
}

beforeAll(async () => {
  for (const dir of Object.values(dirs)) {
    mkdirSync(dir, { recursive: true });
  }
  writeFileSync(join(dirs.module, "tables.ts"), TABLES);
  writeFileSync(fileOf("correct"), CORRECT);
  CASES.forEach((c, i) => {
    writeFileSync(fileOf(i), c.code);
  });

  // The binding types `wrangler types` generates (npm run typecheck writes them; a fresh clone may not
  // have them yet).
  let bindingTypes = join(root, "worker-configuration.d.ts");
  if (!existsSync(bindingTypes)) {
    bindingTypes = join(dirs.module, "worker-configuration.d.ts");
    await run("npx", ["wrangler", "types", "-c", "wrangler.toml", rel(bindingTypes)], {
      cwd: root,
      env: { ...process.env, WRANGLER_SEND_METRICS: "false", XDG_CONFIG_HOME: join(root, ".cache/config") },
    });
  }
  const compiled = [
    "tables.ts",
    "correct.ts",
    ...CASES.flatMap((c, i) => (c.check === "tsc" ? [relative(dirs.module, fileOf(i))] : [])),
  ];
  writeFileSync(
    join(dirs.module, "tsconfig.json"),
    JSON.stringify({
      extends: "../../../tsconfig.base.json",
      files: [relative(dirs.module, bindingTypes), ...compiled],
    }),
  );

  // One compiler run and one linter run over every snippet, then each diagnostic to its file.
  const [tsc, biome] = await Promise.all([
    output(join(root, "node_modules/.bin/tsc"), [
      "--noEmit",
      "--pretty",
      "false",
      "-p",
      rel(join(dirs.module, "tsconfig.json")),
    ]),
    output(join(root, "node_modules/.bin/biome"), [
      "lint",
      "--reporter=github",
      "--max-diagnostics=none",
      ...Object.values(dirs).map(rel),
    ]),
  ]);
  for (const line of tsc.split("\n")) {
    const m = line.match(/^(.+?)\(\d+,\d+\): error (TS\d+: .*)$/);
    if (m) {
      add(rel(resolve(root, m[1])), "tsc", m[2]);
    }
  }
  for (const line of biome.split("\n")) {
    const m = line.match(/^::(?:error|warning) title=([^,]+),file=([^,]+),.*?::(.*)$/);
    if (m) {
      add(rel(resolve(root, m[2])), "biome", `${m[1]}: ${m[3]}`);
    }
  }
}, 600_000);

afterAll(() => {
  for (const dir of Object.values(dirs)) {
    rmSync(dir, { recursive: true, force: true });
  }
});

describe("isolation doors (issue 48): each wrong line fails to compile or lint, by its rule's name", () => {
  it("the correct module compiles and lints clean (so the wrong cases fail for their own reason)", () => {
    expect(found.get(rel(fileOf("correct"))) ?? []).toEqual([]);
    expect(found.get(rel(join(dirs.module, "tables.ts"))) ?? []).toEqual([]);
  });

  it.each(CASES.map((c, i) => [c.name, i]))("%s", (_name, i) => {
    const c = CASES[i];
    const diagnostics = (found.get(rel(fileOf(i))) ?? [])
      .filter((d) => d.tool === c.check)
      .map((d) => d.text);
    expect(
      diagnostics.some((text) => c.expect.every((part) => text.includes(part))),
      `${c.check} on ${rel(fileOf(i))} should name ${c.expect.join(" + ")}; it said: ${JSON.stringify(diagnostics)}`,
    ).toBe(true);
  });
});
