import { env } from "cloudflare:workers";
import fc from "fast-check";
import { beforeAll, describe, expect, it, vi } from "vitest";
import { routeTable } from "../../src/app";
import type { TenantRole } from "../../src/core/context";
import { MAX_CURSOR_LENGTH, openCursor, sealCursor } from "../../src/core/http/cursor";
import { pdfRendering } from "../../src/platform/pdf";
import { createWorld, type World } from "../helpers/factories";
import { call } from "../helpers/harness";
import { type JsonSchema, ulid, validOf } from "../helpers/openapi-arbitrary";
import { FACTORIES } from "../modules/factories";
import { ackingHousehold, finishedLetter, settledRw } from "../modules/surat/helpers";

/**
 * Issue 42: every list refuses, with 400 `invalid_cursor`, a cursor it did not issue, and the cursors it
 * does issue page to its end with nothing lost and nothing repeated (core/http/cursor.ts, ADR 0040).
 * The lists are every operation of `/openapi.json` whose query takes `cursor`, so a new list is covered
 * the day it lands. Each is called as a caller its access line admits, in tenant A of the factories'
 * world, after every factory has run three times over, so most lists have rows to page.
 */
const SEED = 20261142;
const RUNS_PER_LIST = 25;

interface Operation {
  method: string;
  path: string;
  parameters?: { name: string; in: string; required?: boolean; schema: JsonSchema }[];
}

let world: World;
let lists: Operation[] = [];

/**
 * Lists only an RW reaches (its linked RTs' letters awaiting "Mengetahui"): called as the admin of an
 * RW whose linked RT has finished three letters. Every other list is called in tenant A.
 */
const RW_LISTS = new Set(["/api/surat/rw-acknowledgements"]);
let rwAdmin: string;

async function rwWithQueue(): Promise<string> {
  const { tenant, admin } = await settledRw({ headName: "Hendra Gunawan" });
  const rt = await ackingHousehold(tenant.slug);
  for (const subject of ["KR-1", "KR-2", "KR-3"]) {
    await finishedLetter(rt, subject);
  }
  return admin.token;
}

const colon = (path: string) => path.replace(/\{(\w+)\}/g, ":$1");
const routeOf = (op: Operation) =>
  routeTable.find((r) => r.method === op.method && r.path === colon(op.path));

/** Every factory once more in tenant A (a fresh `once`), so the lists have rows; a factory that cannot
 * make a second object of its kind (a unique name) leaves the list with what it has. */
async function populate(times: number) {
  for (let round = 0; round < times; round++) {
    const objects = new Map<string, Promise<unknown>>();
    const fresh: World = {
      ...world,
      once<T>(kind: string, make: () => Promise<T>) {
        let object = objects.get(kind);
        if (!object) {
          object = make();
          objects.set(kind, object);
        }
        return object as Promise<T>;
      },
    };
    for (const factory of Object.values(FACTORIES)) {
      if (factory.kind === "tenant" || factory.kind === "public") {
        await factory.make(fresh).catch(() => undefined);
      }
    }
  }
}

beforeAll(async () => {
  vi.spyOn(pdfRendering, "create").mockImplementation(() => ({
    render: async () => new TextEncoder().encode("%PDF-1.7\n% cursor test stand-in\n%%EOF\n"),
  }));
  const spec = (await (await call("/openapi.json")).json()) as {
    paths: Record<string, Record<string, Operation>>;
  };
  lists = Object.entries(spec.paths).flatMap(([path, methods]) =>
    Object.entries(methods)
      .filter(([, op]) => (op.parameters ?? []).some((p) => p.in === "query" && p.name === "cursor"))
      .map(([method, op]) => ({ ...op, method, path })),
  );
  world = await createWorld();
  await populate(3);
  rwAdmin = await rwWithQueue();
}, 300_000);

/** The URL of a list with its path parameters (a real object's, from its factory) and required query. */
const urls = new Map<Operation, Promise<string>>();
function baseUrl(op: Operation): Promise<string> {
  let url = urls.get(op);
  if (!url) {
    url = (async () => {
      const factory = FACTORIES[colon(op.path)];
      let params: Record<string, string> = {};
      if (factory && factory.kind !== "exempt") {
        params = (await factory.make(world)).params;
      }
      const path = op.path.replace(/\{(\w+)\}/g, (_, name: string) => encodeURIComponent(params[name] ?? ""));
      const search = new URLSearchParams();
      for (const p of op.parameters ?? []) {
        if (p.in === "query" && p.required) {
          search.set(p.name, String(fc.sample(validOf(p.schema), { numRuns: 1, seed: SEED })[0]));
        }
      }
      return `${path}?${search.toString()}`;
    })();
    urls.set(op, url);
  }
  return url;
}

/** A caller the list's access line admits: the broadest staff duty it names, else who it names. */
function caller(op: Operation): { token?: string; headers?: Record<string, string> } {
  if (RW_LISTS.has(op.path)) {
    return { token: rwAdmin };
  }
  const access = routeOf(op)?.access;
  switch (access?.scope) {
    case "tenant": {
      const roles = access.roles as readonly TenantRole[];
      const role = roles.includes("admin") ? "admin" : (roles[roles.length - 1] ?? "admin");
      return { token: world.a.as[role].token };
    }
    case "user":
      return { token: world.a.as.warga.token };
    case "platform":
      return { token: world.operator };
    case "service":
      return { headers: { "X-Service-Internal-Key": env.INTERNAL_API_KEY } };
    default:
      return {};
  }
}

async function get(op: Operation, extra: string) {
  const url = `${await baseUrl(op)}&${extra}`;
  const res = await call(url, caller(op));
  const type = res.headers.get("Content-Type") ?? "";
  const body = type.includes("json") ? ((await res.json()) as Record<string, unknown>) : await res.text();
  return { status: res.status, type, body };
}

/** One character of a cursor changed, a piece cut off, or padding added: a cursor mangled in transit. */
const mangled = (cursor: string) =>
  fc.oneof(
    fc.nat({ max: cursor.length - 1 }).chain((i) =>
      fc
        .constantFrom(..."AZaz09-_")
        .filter((ch) => ch !== cursor[i])
        .map((ch) => `${cursor.slice(0, i)}${ch}${cursor.slice(i + 1)}`),
    ),
    fc.integer({ min: 1, max: cursor.length - 1 }).map((n) => cursor.slice(0, cursor.length - n)),
    fc.constantFrom(`${cursor}=`, `${cursor}==`, `${cursor}A`, cursor.toUpperCase(), ` ${cursor}`),
  );

const day = fc
  .date({ min: new Date("2020-01-01T00:00:00Z"), max: new Date("2030-12-31T00:00:00Z"), noInvalidDate: true })
  .map((d) => d.toISOString().slice(0, 10));

/** Cursors `op` never issued: arbitrary text, the old bare formats, another list's cursor, its own mangled. */
function notIssued(op: Operation): fc.Arbitrary<string> {
  const others = lists.filter((other) => other.path !== op.path).map((other) => other.path);
  return fc
    .oneof(
      fc.string({ minLength: 1, maxLength: 80 }),
      fc.string({ unit: "grapheme", minLength: 1, maxLength: 40 }),
      fc.base64String({ minLength: 4, maxLength: 200 }),
      fc.string({
        unit: fc.constantFrom(..."ABCDEFabcdef0123456789-_"),
        minLength: 1,
        maxLength: MAX_CURSOR_LENGTH,
      }),
      ulid,
      fc.tuple(day, ulid).map(([d, id]) => `${d}~${id}`),
      fc.tuple(fc.constantFrom(...others), ulid).map(([path, id]) => sealCursor(path, id)),
      fc.tuple(fc.constantFrom(...others), day, ulid).map(([path, d, id]) => sealCursor(path, `${d}~${id}`)),
      ulid.chain((id) => mangled(sealCursor(op.path, id))),
    )
    .filter((cursor) => cursor.trim() !== "");
}

/** Every page of a list, `limit` at a time, following the `nextCursor` each page issues. */
async function walk(op: Operation, limit: number, failures: string[]) {
  const items: string[] = [];
  let cursor: string | null = null;
  let pages = 0;
  do {
    const page = await get(op, `limit=${limit}${cursor ? `&cursor=${encodeURIComponent(cursor)}` : ""}`);
    if (page.status !== 200) {
      failures.push(
        `${op.path} page ${pages + 1}: ${page.status} ${JSON.stringify(page.body).slice(0, 160)}`,
      );
      break;
    }
    const body = page.body as { items: unknown[]; nextCursor: string | null };
    items.push(...body.items.map((item) => JSON.stringify(item)));
    cursor = body.nextCursor;
    if (cursor !== null) {
      // Opaque on the wire (no id or date shows through), and it opens on its own list.
      expect(cursor).toMatch(/^[A-Za-z0-9_-]+$/);
      expect(openCursor(op.path, cursor)).not.toBe(cursor);
    }
    pages++;
  } while (cursor && pages <= 150);
  return { items, pages };
}

describe("cursors: opaque, bound to the list that gave them", () => {
  it("finds the lists in /openapi.json, each with a caller that reaches it", async () => {
    expect(lists.length).toBeGreaterThan(30);
    const unreachable: string[] = [];
    for (const op of lists) {
      const res = await get(op, "limit=1");
      if (res.status !== 200) {
        unreachable.push(`${op.path} ${res.status} ${JSON.stringify(res.body).slice(0, 120)}`);
      }
    }
    expect(unreachable).toEqual([]);
  });

  it("answers 400 invalid_cursor, as problem+json, to every cursor a list did not issue", async () => {
    const failures: string[] = [];
    for (const op of lists) {
      await fc
        .assert(
          fc.asyncProperty(notIssued(op), async (cursor) => {
            const res = await get(op, `limit=2&cursor=${encodeURIComponent(cursor)}`);
            const code = typeof res.body === "object" ? res.body.code : undefined;
            if (
              res.status !== 400 ||
              !res.type.includes("application/problem+json") ||
              code !== "invalid_cursor"
            ) {
              failures.push(`${op.path} cursor ${JSON.stringify(cursor)}: ${res.status} ${String(code)}`);
              return false;
            }
            return true;
          }),
          { numRuns: RUNS_PER_LIST, seed: SEED },
        )
        .catch(() => undefined);
    }
    expect(failures.slice(0, 20)).toEqual([]);
  }, 300_000);

  it("says so in the caller's language, Indonesian first", async () => {
    const op = lists[0] as Operation;
    const res = await call(`${await baseUrl(op)}&cursor=bukan-kursor`, {
      ...caller(op),
      headers: { ...caller(op).headers, "Accept-Language": "id" },
    });
    expect(res.status).toBe(400);
    expect(await res.json()).toMatchObject({
      code: "invalid_cursor",
      title: "Kursor halaman tidak valid",
      errors: [
        { field: "cursor", message: "bukan kursor yang diberikan daftar ini; mulai lagi tanpa kursor" },
      ],
    });
  });

  it("refuses an over-long cursor by the schema's own bound", async () => {
    const op = lists[0] as Operation;
    const res = await get(op, `cursor=${"A".repeat(MAX_CURSOR_LENGTH + 1)}`);
    expect(res.status).toBe(400);
    expect((res.body as { errors?: { field: string }[] }).errors?.[0]?.field).toContain("cursor");
  });

  it("pages every list to its end with the cursors it issues: nothing lost, nothing repeated", async () => {
    const failures: string[] = [];
    let paged = 0;
    for (const op of lists) {
      const all = (await walk(op, 100, failures)).items;
      const { items: seen, pages } = await walk(op, 1, failures);
      if (JSON.stringify(seen) !== JSON.stringify(all)) {
        failures.push(`${op.path}: ${seen.length} items paged one at a time, ${all.length} in one page`);
      }
      if (new Set(seen).size !== seen.length) {
        failures.push(`${op.path}: an item came twice`);
      }
      if (pages > 1) {
        paged++;
      }
    }
    console.info(`cursors: ${lists.length} lists, ${paged} paged over more than one page`);
    expect(failures).toEqual([]);
    // Most lists had rows enough to page: the check above walked real cursors, not only empty lists.
    expect(paged).toBeGreaterThan(lists.length / 2);
  }, 300_000);
});
