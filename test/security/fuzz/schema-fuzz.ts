import { exports } from "cloudflare:workers";
import fc from "fast-check";
import { beforeAll, describe, expect, inject, it, vi } from "vitest";
import type { TenantRole } from "../../../src/core/context";
import { pdfRendering } from "../../../src/platform/pdf";
import { admittedCaller } from "../../helpers/callers";
import { call, createTenant, operatorToken } from "../../helpers/harness";
import { check, type Schema } from "../../helpers/json-schema";
import {
  type CoverageCase,
  coverageCases,
  invalidBodyOf,
  type JsonSchema,
  queryOf,
  validOf,
} from "../../helpers/openapi-arbitrary";

/**
 * Issue 12, schema fuzz: for every operation `/openapi.json` describes, requests made from its own
 * request schema, sent as a caller the route admits. Every answer must be below 500, declared among the
 * operation's responses, and match its schema (problem+json for every 4xx); an invalid body must not be
 * accepted.
 *
 * Issue 49: the requests are chosen for coverage (`coverageCases`): every body field and query
 * parameter with each of its kinds of bad value, every required field missing, bodies that are not
 * objects, and valid requests covering every enumerated value, from a fixed seed. Before, 200 invalid
 * and 50 valid requests were sampled at random per operation (about 5,200 a part, most of them
 * repeating a kind already sent). That random sampling still runs on top when asked:
 * `WARGA_FUZZ_RUNS=200 npx vitest run --project api test/security/fuzz/` (and `WARGA_FUZZ_SEED=n` for
 * another seed; both reach the tests through test/vitest.config.ts).
 *
 * A generated request identical to one already sent is sent once. PDFs come from a stand-in renderer
 * (the fuzz checks the contract; test/modules/surat/pdf.test.ts checks the rendering), so a format=pdf
 * case costs no browser.
 */
const { seed: SEED, runs: RANDOM_RUNS } = inject("fuzz");
const VALID_RUNS = 6;

interface Operation {
  method: string;
  path: string;
  parameters?: { name: string; in: string; required?: boolean; schema: JsonSchema }[];
  requestBody?: { content?: Record<string, { schema?: JsonSchema }> };
  responses: Record<string, { content?: Record<string, { schema?: Schema }> }>;
}

let spec: Schema;
const tokens = new Map<string, string | undefined>();

async function prepare() {
  spec = (await (await call("/openapi.json")).json()) as Schema;
  const tenant = await createTenant();
  for (const role of ["warga", "bendahara", "sekretaris", "admin"] as TenantRole[]) {
    tokens.set(role, (await tenant.member(role)).token);
  }
  tokens.set("super_admin", await operatorToken());
  vi.spyOn(pdfRendering, "create").mockImplementation(() => ({
    render: async () => new TextEncoder().encode("%PDF-1.7\n% schema fuzz stand-in\n%%EOF\n"),
  }));
}

/**
 * The generated cases with repeats removed (fast-check samples small domains many times over): two
 * cases are the same when they make the same URL and the same body text.
 */
function distinct<T extends { query: unknown; body: unknown }>(op: Operation, cases: T[]): T[] {
  const seen = new Set<string>();
  return cases.filter((c) => {
    const key = `${urlOf(op, c.query as Record<string, unknown>)}\n${JSON.stringify(c.body)}`;
    if (seen.has(key)) {
      return false;
    }
    seen.add(key);
    return true;
  });
}

/** An operation's JSON body schema and query parameters, as the generators take them. */
function inputsOf(op: Operation) {
  const query = (op.parameters ?? [])
    .filter((p) => p.in === "query")
    .map((p) => ({ name: p.name, schema: p.schema, required: p.required }));
  return { query, body: op.requestBody?.content?.["application/json"]?.schema };
}

/**
 * Every request the fuzz sends for one operation: the coverage cases, then (with `WARGA_FUZZ_RUNS`)
 * that many random invalid and a quarter as many random valid ones, repeats removed.
 */
function casesOf(op: Operation): { invalid: CoverageCase[]; valid: CoverageCase[] } {
  const { query, body } = inputsOf(op);
  const cover = coverageCases(query, body, SEED, VALID_RUNS);
  if (RANDOM_RUNS > 0) {
    const random = (valid: boolean, runs: number, seed: number) =>
      fc
        .sample(
          fc.record({
            query: queryOf(query, valid || Boolean(body)),
            body: body ? (valid ? validOf(body) : invalidBodyOf(body)) : fc.constant(undefined),
          }),
          { numRuns: runs, seed },
        )
        .map((c, i) => ({
          label: `random ${valid ? "valid" : "invalid"} ${i}`,
          query: c.query as Record<string, unknown>,
          body: c.body,
          bodyBroken: !valid && body !== undefined,
        }));
    cover.invalid.push(...random(false, RANDOM_RUNS, SEED));
    cover.valid.push(...random(true, Math.ceil(RANDOM_RUNS / 4), SEED + 1));
  }
  return { invalid: distinct(op, cover.invalid), valid: distinct(op, cover.valid) };
}

function operations(): Operation[] {
  const out: Operation[] = [];
  for (const [path, methods] of Object.entries(spec.paths as Record<string, Record<string, Operation>>)) {
    for (const [method, op] of Object.entries(methods)) {
      out.push({ ...op, method, path });
    }
  }
  return out;
}

/** A caller the route admits, so requests get past the guard into validation and the verb. */
function callerHeaders(op: Operation): Record<string, string> {
  return admittedCaller(op.method, op.path, tokens);
}

function urlOf(op: Operation, query: Record<string, unknown>): string {
  const path = op.path.replace(/\{(\w+)\}/g, "01HZZZZZZZZZZZZZZZZZZZZZZZ");
  const search = new URLSearchParams();
  for (const [key, value] of Object.entries(query)) {
    if (value !== undefined) {
      search.set(key, String(value));
    }
  }
  const text = search.toString();
  return text ? `${path}?${text}` : path;
}

async function verdict(op: Operation, res: Response): Promise<string[]> {
  const problems: string[] = [];
  const status = String(res.status);
  if (res.status >= 500) {
    problems.push(`${res.status} ${await res.text()}`);
    return problems;
  }
  const declared = op.responses[status];
  if (!declared) {
    problems.push(`status ${status} is not declared (declared: ${Object.keys(op.responses).join(", ")})`);
  }
  const type = res.headers.get("Content-Type") ?? "";
  // The few HTML pages (reset password, ticket reply, letter verification) answer their errors as
  // pages, declared as text/html: for them a page is the contract.
  if (res.status >= 400 && type.includes("text/html") && declared?.content?.["text/html"]) {
    return problems;
  }
  if (res.status >= 400) {
    if (!type.includes("application/problem+json")) {
      problems.push(`${status} is not problem+json (${type})`);
    } else {
      const body = await res.json();
      const problem = (spec.components as { schemas: Record<string, Schema> }).schemas.Problem as Schema;
      problems.push(...check(body, problem, spec));
      if ((body as { status?: number }).status !== res.status) {
        problems.push(`problem status ${(body as { status?: number }).status} ≠ ${res.status}`);
      }
    }
    return problems;
  }
  // The schema of the media type answered (a route may declare several: JSON or GeoJSON), else JSON's.
  const mediaType = type.split(";")[0]?.trim() ?? "";
  const schema = (declared?.content?.[mediaType] ?? declared?.content?.["application/json"])?.schema;
  if (schema && type.includes("json")) {
    problems.push(...check(await res.json(), schema, spec));
  }
  return problems;
}

/**
 * Issue 31: hostile shapes the schema-driven cases never produce, for every operation: a body nested
 * 5,000 levels (arrays and objects), malformed percent-encoding in every query and path parameter,
 * overlong headers, and bodies in the wrong encoding (bytes that are not UTF-8, UTF-16 JSON). Each
 * answer must be below 500, and a 4xx must be problem+json (or the page a page route declares).
 */
const BAD_ESCAPES = ["%ff", "%C3%28", "%", "%E0%A4%A", "%ED%A0%80"];

function hostileCases(op: Operation, hasBody: boolean): { label: string; url: string; init: RequestInit }[] {
  const cases: { label: string; url: string; init: RequestInit }[] = [];
  const method = op.method.toUpperCase();
  const plain = urlOf(op, {});
  const get = (url: string, label: string, headers: Record<string, string> = {}) =>
    cases.push({ label, url, init: { method, headers: { ...callerHeaders(op), ...headers } } });
  for (const p of (op.parameters ?? []).filter((x) => x.in === "query")) {
    for (const bad of BAD_ESCAPES) {
      get(`${plain}${plain.includes("?") ? "&" : "?"}${p.name}=${bad}`, `query ${p.name}=${bad}`);
    }
  }
  for (const name of [...op.path.matchAll(/\{(\w+)\}/g)].map((m) => m[1])) {
    for (const bad of BAD_ESCAPES) {
      const url = op.path
        .replace(`{${name}}`, `x${bad}y`)
        .replace(/\{(\w+)\}/g, "01HZZZZZZZZZZZZZZZZZZZZZZZ");
      get(url, `path ${name}=${bad}`);
    }
  }
  get(plain, "overlong headers", { "X-Request-Id": "r".repeat(8_000), "X-Fuzz": "h".repeat(32_000) });
  if (hasBody && method !== "GET") {
    const json = { ...callerHeaders(op), "Content-Type": "application/json" };
    const bodies: [string, BodyInit][] = [
      ["array nesting 5,000", `${"[".repeat(5000)}${"]".repeat(5000)}`],
      ["object nesting 5,000", `${'{"a":'.repeat(5000)}1${"}".repeat(5000)}`],
      [
        "bytes that are not UTF-8",
        new Uint8Array([0x7b, 0x22, 0x61, 0x22, 0x3a, 0x22, 0xff, 0xfe, 0xc3, 0x28, 0x22, 0x7d]),
      ],
      [
        "UTF-16 JSON",
        new Uint8Array([0xff, 0xfe, ...[...'{"a":"b"}'].flatMap((ch) => [ch.charCodeAt(0), 0])]),
      ],
    ];
    for (const [label, body] of bodies) {
      cases.push({ label, url: plain, init: { method, headers: json, body } });
    }
  }
  return cases;
}

let hostileIp = 1;
async function hostileVerdict(res: Response, op: Operation): Promise<string[]> {
  if (res.status >= 500) {
    return [`${res.status} ${(await res.text()).slice(0, 200)}`];
  }
  const type = res.headers.get("Content-Type") ?? "";
  await res.arrayBuffer();
  if (res.status >= 400 && !type.includes("application/problem+json")) {
    const page = type.includes("text/html") && op.responses[String(res.status)]?.content?.["text/html"];
    return page ? [] : [`${res.status} is not problem+json (${type})`];
  }
  return [];
}

/** The hostile shapes of one operation; returns how many requests were sent. */
async function sendHostile(op: Operation, failures: string[]): Promise<{ sent: number; errors: number }> {
  const body = op.requestBody?.content?.["application/json"]?.schema;
  let errors = 0;
  const cases = hostileCases(op, body !== undefined);
  for (const c of cases) {
    const headers = new Headers(c.init.headers);
    headers.set("CF-Connecting-IP", `198.19.${(hostileIp >> 8) & 255}.${hostileIp++ & 255}`);
    const res = await exports.default.fetch(new Request(`http://api.test${c.url}`, { ...c.init, headers }));
    if (res.status >= 500) {
      errors++;
    }
    const problems = await hostileVerdict(res, op);
    if (problems.length) {
      failures.push(`${op.method.toUpperCase()} ${op.path} hostile ${c.label}: ${problems.join("; ")}`);
    }
  }
  return { sent: cases.length, errors };
}

/**
 * `parts` splits the operations over several test files (schema-fuzz*.test.ts), so no single file is the
 * suite's long pole: files share one runtime, so a split costs nothing but the file. Operations are
 * dealt by their number of requests (largest first, each to the part with the fewest so far), so the
 * parts take about the same time; every part computes the same deal.
 */
function partOf(
  all: Operation[],
  parts: number,
): Map<Operation, { cases: ReturnType<typeof casesOf>; part: number }> {
  const sized = all.map((op) => {
    const cases = casesOf(op);
    const hostile = hostileCases(op, inputsOf(op).body !== undefined).length;
    return { op, cases, size: cases.invalid.length + cases.valid.length + hostile };
  });
  const load = new Array<number>(parts).fill(0);
  const out = new Map<Operation, { cases: ReturnType<typeof casesOf>; part: number }>();
  for (const { op, cases, size } of [...sized].sort((a, b) => b.size - a.size)) {
    const part = load.indexOf(Math.min(...load));
    load[part] = (load[part] ?? 0) + size;
    out.set(op, { cases, part });
  }
  return out;
}

export function fuzzPart(part: number, parts: number) {
  describe(`schema fuzz over /openapi.json (part ${part + 1} of ${parts})`, () => {
    beforeAll(prepare, 60_000);
    it("answers every operation's generated requests below 500 and as declared", async () => {
      const failures: string[] = [];
      let sent = 0;
      let hostileSent = 0;
      let serverErrors = 0;
      const all = operations();
      expect(all.length).toBeGreaterThan(150);
      const deal = partOf(all, parts);
      const ops = all.filter((op) => deal.get(op)?.part === part);
      const took: [string, number][] = [];
      for (const op of ops) {
        const label = `${op.method.toUpperCase()} ${op.path}`;
        const started = performance.now();
        const { body } = inputsOf(op);
        const headers = { ...callerHeaders(op), "Content-Type": "application/json" };
        const send = async (c: CoverageCase) => {
          sent++;
          const res = await call(urlOf(op, c.query), {
            method: op.method.toUpperCase(),
            headers,
            ...(body !== undefined && op.method !== "get" ? { body: JSON.stringify(c.body) } : {}),
          });
          if (res.status >= 500) {
            serverErrors++;
          }
          return res;
        };
        const cases = deal.get(op)?.cases ?? { invalid: [], valid: [] };
        for (const c of cases.invalid) {
          const res = await send(c);
          const problems = await verdict(op, res);
          if (c.bodyBroken && res.status < 300) {
            problems.push(`accepted an invalid body with ${res.status}`);
          }
          if (problems.length) {
            failures.push(`${label} ${c.label} ${JSON.stringify(c).slice(0, 200)}: ${problems.join("; ")}`);
          }
        }
        for (const c of cases.valid) {
          const problems = await verdict(op, await send(c));
          if (problems.length) {
            failures.push(`${label} ${c.label} ${JSON.stringify(c).slice(0, 200)}: ${problems.join("; ")}`);
          }
        }
        const hostile = await sendHostile(op, failures);
        sent += hostile.sent;
        hostileSent += hostile.sent;
        serverErrors += hostile.errors;
        took.push([label, performance.now() - started]);
      }
      const slowest = took
        .sort((a, b) => b[1] - a[1])
        .slice(0, 3)
        .map(([label, ms]) => `${label} ${(ms / 1000).toFixed(1)} s`);
      console.info(
        `schema fuzz part ${part + 1}/${parts}: ${ops.length} operations, ${sent} requests (${hostileSent} hostile shapes), ${serverErrors} answered 5xx, seed ${SEED}, random runs ${RANDOM_RUNS}; slowest: ${slowest.join(", ")}`,
      );
      expect([...new Set(failures.map((f) => f.slice(0, 400)))].slice(0, 40)).toEqual([]);
    }, 600_000);
  });
}
