import { env } from "cloudflare:workers";
import fc from "fast-check";
import { beforeAll, describe, expect, it } from "vitest";
import { FIELD_MESSAGES_ID, indonesianFieldMessage } from "../../src/core/i18n/field-messages";
import { call, createTenant, operatorToken, type TestTenant } from "../helpers/harness";
import { invalidBodyOf, type JsonSchema, queryOf, validOf } from "../helpers/openapi-arbitrary";

/**
 * Issue 42 item 5: under `Accept-Language: id` no message of a problem is left in English. For every
 * operation of /openapi.json with a JSON body or a query, requests built from its own schema (bodies
 * and queries that break one rule, and valid bodies, which reach the refinements and the verbs' own
 * checks) are sent as a caller the operation's `x-warga-access` admits; every `title`, `detail` and
 * field message answered must read as Indonesian. English is found by a small list of words that no
 * Indonesian message uses (the quoted values a message repeats, such as enum members, are left out).
 */
const INVALID_RUNS = 12;
const VALID_RUNS = 4;
const SEED = 20261142;
const ENGLISH =
  /\b(must|should|required|invalid|expected|received|characters?|allowed|only|least|most|between|the|is|are|be|not|cannot|empty|too|goes|with|and|or|of|one|an|no|any|unknown|given|missing|either|needs?|than|after|before|when|may|per|this|that|only)\b/i;

interface Operation {
  parameters?: { name: string; in: string; required?: boolean; schema: JsonSchema }[];
  requestBody?: { content?: Record<string, { schema?: JsonSchema }> };
  "x-warga-access": { scope: string; duties?: string[]; residents?: boolean };
}
interface Problem {
  title?: string;
  detail?: string;
  errors?: { field: string; message: string }[];
}

let doc: { paths: Record<string, Record<string, Operation>> };
let tenant: TestTenant;
const tokens = new Map<string, string>();

beforeAll(async () => {
  doc = (await (await call("/openapi.json")).json()) as typeof doc;
  tenant = await createTenant();
  for (const role of ["warga", "bendahara", "sekretaris", "admin", "satpam"] as const) {
    tokens.set(role, (await tenant.member(role)).token);
  }
  tokens.set("operator", await operatorToken());
}, 60_000);

/** A caller the operation admits, read from its x-warga-access; null for a gate device's key. */
function callerHeaders(op: Operation): Record<string, string> | null {
  const access = op["x-warga-access"];
  switch (access.scope) {
    case "tenant": {
      const role = access.duties?.includes("admin")
        ? "admin"
        : access.residents
          ? "warga"
          : (access.duties?.[0] ?? "admin");
      return { Authorization: `Bearer ${tokens.get(role)}` };
    }
    case "user":
      return { Authorization: `Bearer ${tokens.get("warga")}` };
    case "platform":
      return { Authorization: `Bearer ${tokens.get("operator")}` };
    case "service":
      return { "X-Service-Internal-Key": env.INTERNAL_API_KEY };
    case "device":
      return null;
    default:
      return {};
  }
}

function urlOf(path: string, query: Record<string, unknown>): string {
  const filled = path.replace("{slug}", tenant.slug).replace(/\{(\w+)\}/g, "01HZZZZZZZZZZZZZZZZZZZZZZZ");
  const search = new URLSearchParams();
  for (const [key, value] of Object.entries(query)) {
    if (value !== undefined) {
      search.set(key, String(value));
    }
  }
  const text = search.toString();
  return text ? `${filled}?${text}` : filled;
}

/** The English left in one message, if any. */
function english(message: string): string | undefined {
  const unquoted = message.replace(/"[^"]*"|'[^']*'|`[^`]*`/g, "");
  return ENGLISH.exec(unquoted)?.[0];
}

describe("every message under Accept-Language: id is Indonesian", () => {
  it("the catalogue's lines read as Indonesian, and a template carries its filled parts over", () => {
    const english_ = Object.values(FIELD_MESSAGES_ID).filter((id) => english(id));
    expect(english_).toEqual([]);
    for (const [en, id] of Object.entries(FIELD_MESSAGES_ID)) {
      expect(en.split("{}").length, `${en} keeps its parts`).toBe(id.split("{}").length);
    }
    expect(indonesianFieldMessage("text of at most 120 characters, without control characters")).toBe(
      "teks paling banyak 120 karakter, tanpa karakter kontrol",
    );
    expect(indonesianFieldMessage("Too small: expected string to have >=3 characters")).toBe(
      "Terlalu kecil: diharapkan string memiliki >=3 karakter",
    );
    expect(indonesianFieldMessage("unknown: a, b")).toBe("tidak dikenal: a, b");
    expect(indonesianFieldMessage("something nobody wrote")).toBe("something nobody wrote");
  });

  it("for invalid and valid requests built from each operation's schema", async () => {
    const leftInEnglish = new Map<string, string>();
    let problems = 0;
    let fieldMessages = 0;
    for (const [path, item] of Object.entries(doc.paths)) {
      for (const [method, op] of Object.entries(item)) {
        const caller = callerHeaders(op);
        const body = op.requestBody?.content?.["application/json"]?.schema;
        const query = (op.parameters ?? [])
          .filter((p) => p.in === "query")
          .map((p) => ({ name: p.name, schema: p.schema, required: p.required }));
        if (caller === null || (!body && query.length === 0)) {
          continue;
        }
        const cases = [
          ...fc.sample(
            fc.record({
              query: queryOf(query, Boolean(body)),
              body: body ? invalidBodyOf(body) : fc.constant(undefined),
            }),
            { numRuns: INVALID_RUNS, seed: SEED },
          ),
          ...(body
            ? fc.sample(fc.record({ query: queryOf(query, true), body: validOf(body) }), {
                numRuns: VALID_RUNS,
                seed: SEED + 1,
              })
            : []),
        ];
        const seen = new Set<string>();
        for (const c of cases) {
          const url = urlOf(path, c.query as Record<string, unknown>);
          const key = `${url}\n${JSON.stringify(c.body)}`;
          if (seen.has(key)) {
            continue;
          }
          seen.add(key);
          const res = await call(url, {
            method: method.toUpperCase(),
            headers: { ...caller, "Accept-Language": "id", "Content-Type": "application/json" },
            ...(body ? { body: JSON.stringify(c.body) } : {}),
          });
          if (!(res.headers.get("Content-Type") ?? "").includes("problem+json")) {
            await res.arrayBuffer();
            continue;
          }
          problems++;
          const problem = (await res.json()) as Problem;
          const messages = [
            problem.title ?? "",
            problem.detail ?? "",
            ...(problem.errors ?? []).map((e) => e.message),
          ];
          fieldMessages += problem.errors?.length ?? 0;
          for (const message of messages) {
            const word = english(message);
            if (word && !leftInEnglish.has(message)) {
              leftInEnglish.set(message, `${method.toUpperCase()} ${path} ("${word}")`);
            }
          }
        }
      }
    }
    expect(problems).toBeGreaterThan(500);
    expect(fieldMessages).toBeGreaterThan(500);
    expect([...leftInEnglish].map(([message, where]) => `${message} — ${where}`)).toEqual([]);
  }, 600_000);
});
