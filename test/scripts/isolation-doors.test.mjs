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
  // Inside identity, which the path rules let import its own tables and memberTenantCtx.
  identity: join(root, "src/modules/identity", tag),
  core: join(root, "src/core", tag),
  platform: join(root, "src/platform", tag),
};
/** Where a case's file is written: the three folders above, and a sub-folder of the fake module. */
const places = { ...dirs, moduleRoutes: join(dirs.module, "routes") };

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
    name: "module takes core's system-wide context builders as a namespace (system.systemPlatformCtx)",
    where: "module",
    check: "biome",
    expect: ["no-namespace-imports"],
    code: `import * as system from "../../core/tenancy/system";

export const wrong = system.systemPlatformCtx;
`,
  },
  {
    name: "module takes identity's tables as a namespace (identity.users)",
    where: "module",
    check: "biome",
    expect: ["no-namespace-imports"],
    code: `import * as identity from "../../core/db/identity-schema";

export const wrong = identity.users;
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
    name: "module imports a system-wide context builder by name",
    where: "module",
    check: "biome",
    expect: ["lint/style/noRestrictedImports", "core/jobs.ts"],
    code: `import { systemPlatformCtx } from "../../core/tenancy/system";

export const wrong = systemPlatformCtx;
`,
  },
  // Item 2(c): a closed community's database, outside its two readers.
  {
    name: "module outside the close and the archive imports closedTenantCtx",
    where: "module",
    check: "biome",
    expect: ["no-closed-tenant-ctx"],
    code: `import { closedTenantCtx } from "../../core/tenancy/closed";

export const wrong = closedTenantCtx;
`,
  },
  ...PATH_RULE_CASES(),
  // Item 6: another module is reached through its public face, <module>/service.ts, alone (ADR 0052).
  {
    name: "module imports another module's tables",
    where: "module",
    check: "biome",
    expect: ["modules-through-service"],
    code: `import { visitors } from "../visitor/tables";

export const wrong = visitors;
`,
  },
  {
    name: "module's sub-folder imports another module's internal file (surat/kept)",
    where: "moduleRoutes",
    check: "biome",
    expect: ["modules-through-service"],
    code: `import { keptLetter } from "../../surat/kept";

export const wrong = keptLetter;
`,
  },
  {
    name: "module re-exports a verb from another module's internal file",
    where: "module",
    check: "biome",
    expect: ["modules-through-service"],
    code: `export { configuredProviders } from "../identity/oauth/providers";
`,
  },
  {
    name: "module imports another module's file by a type-only import",
    where: "module",
    check: "biome",
    expect: ["modules-through-service"],
    code: `import type { LetterRow } from "../surat/letters";

export type Wrong = LetterRow;
`,
  },
  {
    name: "module loads another module's file by a dynamic import",
    where: "module",
    check: "biome",
    expect: ["modules-through-service"],
    code: `export const wrong = () => import("../platform-ops/archives");
`,
  },
  {
    name: "module climbs to src/ and back down into another module's routes",
    where: "module",
    check: "biome",
    expect: ["modules-through-service"],
    code: `import { GetVisitor } from "../../modules/visitor/routes/getVisitor";

export const wrong = GetVisitor;
`,
  },
  {
    name: "page imports a module's internal file (visitor/pass-link)",
    where: "page",
    check: "biome",
    expect: ["modules-through-service"],
    code: `import type { GuestPass } from "../../modules/visitor/pass-link";

export type Wrong = GuestPass;
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

/**
 * Issue 48, item 2 (path rules, ADR 0050): the system-wide context builders (core/tenancy/system.ts),
 * memberTenantCtx (core/tenancy/member.ts, identity's alone), closedTenantCtx (core/tenancy/closed.ts, two
 * callers) and identity's tables (core/db/identity-schema.ts, identity's alone) are refused by the FILE
 * they live in, so every form of import is refused: by name, `* as`, type-only, dynamic, with an
 * extension. The names are gone from the files modules may import (contexts.ts, platform-schema.ts), so
 * the old door does not compile. A function so that these entries merge apart from others' cases.
 */
function PATH_RULE_CASES() {
  const system = ["lint/style/noRestrictedImports", "core/tenancy/system.ts"];
  const member = ["lint/style/noRestrictedImports", "core/tenancy/member.ts"];
  const identity = ["lint/style/noRestrictedImports", "core/db/identity-schema.ts"];
  return [
    // The system-wide builders and the full bindings.
    {
      name: "path rule: module takes system.ts as a namespace (refused by the path, not only by the plugin)",
      where: "module",
      check: "biome",
      expect: system,
      code: `import * as system from "../../core/tenancy/system";

export const wrong = system.forEachTenant;
`,
    },
    {
      name: "path rule: page imports systemTenantCtx by name from system.ts",
      where: "page",
      check: "biome",
      expect: system,
      code: `import { systemTenantCtx } from "../../core/tenancy/system";

export const wrong = systemTenantCtx;
`,
    },
    {
      name: "path rule: page takes system.ts as a namespace (system.serviceEnv)",
      where: "page",
      check: "biome",
      expect: system,
      code: `import * as system from "../../core/tenancy/system";

export const wrong = system.serviceEnv;
`,
    },
    {
      name: "path rule: Durable Object imports bindingsOf from system.ts",
      where: "durable",
      check: "biome",
      expect: system,
      code: `import { bindingsOf } from "../../core/tenancy/system";

export const wrong = bindingsOf;
`,
    },
    {
      name: "path rule: module imports system.js (an extension does not slip the rule)",
      where: "module",
      check: "biome",
      expect: system,
      code: `import { tenantCtxFor } from "../../core/tenancy/system.js";

export const wrong = tenantCtxFor;
`,
    },
    {
      name: "path rule: module loads system.ts with a dynamic import()",
      where: "module",
      check: "biome",
      expect: system,
      code: `export const wrong = import("../../core/tenancy/system").then((m) => m.systemPlatformCtx);
`,
    },
    {
      name: "path rule: the old door is gone, contexts.ts no longer exports systemPlatformCtx",
      where: "module",
      check: "tsc",
      expect: ["TS2305", "systemPlatformCtx"],
      code: `import { systemPlatformCtx } from "../../core/tenancy/contexts";

export const wrong = systemPlatformCtx;
`,
    },
    {
      name: "path rule: module outside identity imports memberTenantCtx from member.ts",
      where: "module",
      check: "biome",
      expect: member,
      code: `import { memberTenantCtx } from "../../core/tenancy/member";

export const wrong = memberTenantCtx;
`,
    },
    {
      name: "path rule: module takes closed.ts as a namespace",
      where: "module",
      check: "biome",
      expect: ["no-closed-tenant-ctx"],
      code: `import * as closed from "../../core/tenancy/closed";

export const wrong = closed.closedTenantCtx;
`,
    },
    {
      name: "path rule: page loads closed.ts with a dynamic import()",
      where: "page",
      check: "biome",
      expect: ["no-closed-tenant-ctx"],
      code: `export const wrong = import("../../core/tenancy/closed").then((m) => m.closedTenantCtx);
`,
    },
    // Identity's tables.
    {
      name: "path rule: module imports users by name from identity-schema.ts",
      where: "module",
      check: "biome",
      expect: identity,
      code: `import { users } from "../../core/db/identity-schema";

export const wrong = users;
`,
    },
    {
      name: "path rule: module takes identity-schema.ts as a namespace (refused by the path, not only by the plugin)",
      where: "module",
      check: "biome",
      expect: identity,
      code: `import * as identity from "../../core/db/identity-schema";

export const wrong = identity.sessions;
`,
    },
    {
      name: "path rule: module imports the type of identity's table (type-only imports are refused too)",
      where: "module",
      check: "biome",
      expect: identity,
      code: `import type { oneTimeTokens } from "../../core/db/identity-schema";

export type Wrong = typeof oneTimeTokens.$inferSelect;
`,
    },
    {
      name: "path rule: page imports memberships by name from identity-schema.ts",
      where: "page",
      check: "biome",
      expect: identity,
      code: `import { memberships } from "../../core/db/identity-schema";

export const wrong = memberships;
`,
    },
    {
      name: "path rule: page takes identity-schema.ts as a namespace (identity.oneTimeTokens)",
      where: "page",
      check: "biome",
      expect: identity,
      code: `import * as identity from "../../core/db/identity-schema";

export const wrong = identity.oneTimeTokens;
`,
    },
    {
      name: "path rule: the old door is gone, platform-schema.ts no longer exports users",
      where: "module",
      check: "tsc",
      expect: ["TS2305", "users"],
      code: `import { users } from "../../core/db/platform-schema";

export const wrong = users;
`,
    },
  ];
}

/** A module written the way CONTRIBUTING says: it must compile and lint clean. */
const CORRECT = `import type { Context } from "hono";
import type { RouteEnv } from "../../core/env";
import type { PlatformCtx } from "../../core/context";
import { tenants } from "../../core/db/platform-schema";
import { tenantCtx } from "../../core/http/access";
import { fileReference, personalColumns, personalData } from "../../core/module";
import { publicTenantCtx } from "../../core/tenancy/contexts";
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

/** What contexts.ts and platform-schema.ts still give every module (path rules, ADR 0050). */
export const byCode = (ctx: PlatformCtx, slug: string) => publicTenantCtx(ctx, slug);
export const tenantSlug = tenants.slug;
`;

/** Identity, the one module the path rules let import its tables and memberTenantCtx (ADR 0050). */
const CORRECT_IDENTITY = `import type { PlatformCtx } from "../../../core/context";
import { memberships, users } from "../../../core/db/identity-schema";
import { memberTenantCtx } from "../../../core/tenancy/member";

export const own = (ctx: PlatformCtx, userId: string, tenantSlug: string) =>
  memberTenantCtx(ctx, { userId, tenantSlug, roles: [] });
export const columns = [users.email, memberships.roles];
`;

/**
 * A route file in the module's own sub-folder, as CONTRIBUTING writes one: its own module's files by
 * `../`, another module through its service.ts alone. Compiled and linted with the rest.
 */
const CORRECT_ROUTE = `import { doorUnits } from "../tables";
import { countAwaitingGuests } from "../../visitor/service";

export const ownTable = doorUnits;
export const otherModulesVerb = countAwaitingGuests;
`;

const fileOf = (i) => {
  if (i === "correct") {
    return join(dirs.module, "correct.ts");
  }
  if (i === "correct-identity") {
    return join(dirs.identity, "correct.ts");
  }
  if (i === "correctRoute") {
    return join(places.moduleRoutes, "correct.ts");
  }
  return join(places[CASES[i].where], `case${i}.ts`);
};
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
  for (const dir of Object.values(places)) {
    mkdirSync(dir, { recursive: true });
  }
  writeFileSync(join(dirs.module, "tables.ts"), TABLES);
  writeFileSync(fileOf("correct"), CORRECT);
  writeFileSync(fileOf("correct-identity"), CORRECT_IDENTITY);
  writeFileSync(fileOf("correctRoute"), CORRECT_ROUTE);
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
    relative(dirs.module, fileOf("correct-identity")),
    relative(dirs.module, fileOf("correctRoute")),
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
    expect(found.get(rel(fileOf("correctRoute"))) ?? []).toEqual([]);
    expect(found.get(rel(join(dirs.module, "tables.ts"))) ?? []).toEqual([]);
  });

  it("identity imports its own tables and memberTenantCtx clean (the path rules' one exception)", () => {
    expect(found.get(rel(fileOf("correct-identity"))) ?? []).toEqual([]);
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
