import { env, exports } from "cloudflare:workers";
import fc from "fast-check";
import { beforeAll, describe, expect, it, vi } from "vitest";
import type { TenantRole } from "../../../src/core/context";
import { pdfRendering } from "../../../src/platform/pdf";
import { admittedCaller } from "../../helpers/callers";
import { call, createTenant, operatorToken } from "../../helpers/harness";
import { check, type Schema } from "../../helpers/json-schema";
import { invalidBodyOf, type JsonSchema, queryOf, validOf } from "../../helpers/openapi-arbitrary";

/**
 * Issue 12, schema fuzz: for every operation `/openapi.json` describes, requests made from its own
 * request schema (at least 200 that break one rule and 50 that keep them all, seeded so a failure
 * replays), sent as a caller the route admits. Every answer must be below 500, declared among the
 * operation's responses, and match its schema (problem+json for every 4xx).
 *
 * A generated request identical to one already sent is sent once: an operation with no query and no
 * body has one request to make, not 250. PDFs come from a stand-in renderer (the fuzz checks the
 * contract; test/modules/surat/pdf.test.ts checks the rendering), so a format=pdf case costs no browser.
 */
const INVALID_RUNS = 200;
const VALID_RUNS = 50;
const SEED = Number((env as unknown as Record<string, unknown>).FUZZ_SEED ?? 20261123);

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
 * suite's long pole: files share one runtime, so a split costs nothing but the file.
 */
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
      const ops = all.filter((_, i) => i % parts === part);
      const took: [string, number][] = [];
      for (const op of ops) {
        const label = `${op.method.toUpperCase()} ${op.path}`;
        const started = performance.now();
        const query = (op.parameters ?? []).filter((p) => p.in === "query");
        const body = op.requestBody?.content?.["application/json"]?.schema;
        const headers = { ...callerHeaders(op), "Content-Type": "application/json" };
        const send = async (q: Record<string, unknown>, b: unknown) => {
          sent++;
          const res = await call(urlOf(op, q), {
            method: op.method.toUpperCase(),
            headers,
            ...(body !== undefined && op.method !== "get" ? { body: JSON.stringify(b) } : {}),
          });
          if (res.status >= 500) {
            serverErrors++;
          }
          return res;
        };
        const cases = distinct(
          op,
          fc.sample(
            fc.record({
              query: queryOf(
                query.map((p) => ({ name: p.name, schema: p.schema, required: p.required })),
                Boolean(body),
              ),
              body: body ? invalidBodyOf(body) : fc.constant(undefined),
            }),
            { numRuns: INVALID_RUNS, seed: SEED },
          ),
        );
        for (const c of cases) {
          const res = await send(c.query as Record<string, unknown>, c.body);
          const problems = await verdict(op, res);
          if (body && res.status < 300) {
            problems.push(`accepted an invalid body with ${res.status}`);
          }
          if (problems.length) {
            failures.push(`${label} invalid ${JSON.stringify(c).slice(0, 200)}: ${problems.join("; ")}`);
          }
        }
        const valid = distinct(
          op,
          fc.sample(
            fc.record({
              query: queryOf(
                query.map((p) => ({ name: p.name, schema: p.schema, required: p.required })),
                true,
              ),
              body: body ? validOf(body) : fc.constant(undefined),
            }),
            { numRuns: VALID_RUNS, seed: SEED + 1 },
          ),
        );
        for (const c of valid) {
          const problems = await verdict(op, await send(c.query as Record<string, unknown>, c.body));
          if (problems.length) {
            failures.push(`${label} valid ${JSON.stringify(c).slice(0, 200)}: ${problems.join("; ")}`);
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
        `schema fuzz part ${part + 1}/${parts}: ${ops.length} operations, ${sent} requests (${hostileSent} hostile shapes), ${serverErrors} answered 5xx, seed ${SEED}; slowest: ${slowest.join(", ")}`,
      );
      expect([...new Set(failures.map((f) => f.slice(0, 400)))].slice(0, 40)).toEqual([]);
    }, 600_000);
  });
}
