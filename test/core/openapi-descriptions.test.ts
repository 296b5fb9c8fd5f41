import { describe, expect, it } from "vitest";
import { ERROR_CODES } from "../../src/app";
import { callJson } from "../helpers/harness";

/**
 * The human half of the OpenAPI contract (issue 42, item 5): every operation has a short imperative
 * summary and a description a client developer can build on (who may call it, what it checks, which
 * state it moves). These checks keep that true for a route added later, and keep the problem codes a
 * description names honest: each one it writes as "409 `code`" must be a code the API has and a status
 * the operation documents, and an operation that documents a 409, 410 or 422 names the codes behind it.
 */
interface Operation {
  summary?: string;
  description?: string;
  tags?: string[];
  responses: Record<string, unknown>;
}

const NAMED_STATUSES = ["409", "410", "422"] as const;
/** "409 `invalid_transition`", "409 `a` or `b`", "409 `a`, `b` and `c`": a status and the codes after it. */
const MENTION = /\b([45]\d\d) ((?:`[a-z_]+`(?:,? (?:or|and) |, |\/)?)+)/g;

async function operations() {
  const res = await callJson<{ paths: Record<string, Record<string, Operation>> }>("/openapi.json");
  expect(res.status).toBe(200);
  return Object.entries(res.body.paths).flatMap(([path, item]) =>
    Object.entries(item).map(([method, op]) => ({ name: `${method.toUpperCase()} ${path}`, op })),
  );
}

function mentions(description: string) {
  return [...description.matchAll(MENTION)].map((m) => ({
    status: m[1] as string,
    codes: [...(m[2] as string).matchAll(/`([a-z_]+)`/g)].map((c) => c[1] as string),
  }));
}

describe("OpenAPI summaries and descriptions", () => {
  it("gives every operation a short summary without a trailing period, and one tag", async () => {
    const bad = (await operations())
      .filter(
        ({ op }) =>
          !op.summary?.trim() ||
          op.summary.length > 80 ||
          op.summary.endsWith(".") ||
          op.summary !== op.summary.trim() ||
          !/^[A-Z]/.test(op.summary) ||
          op.tags?.length !== 1,
      )
      .map(({ name, op }) => `${name}: ${JSON.stringify(op.summary)} ${JSON.stringify(op.tags)}`);
    expect(bad).toEqual([]);
  });

  it("gives every operation a description of at least 60 characters", async () => {
    const bad = (await operations())
      .filter(({ op }) => (op.description?.trim().length ?? 0) < 60)
      .map(({ name }) => name);
    expect(bad).toEqual([]);
  });

  it("names only problem codes that exist, under statuses the operation documents", async () => {
    const known = new Set<string>(ERROR_CODES);
    const bad = (await operations()).flatMap(({ name, op }) =>
      mentions(op.description ?? "").flatMap(({ status, codes }) => [
        ...(op.responses[status] ? [] : [`${name}: names ${status}, which it does not document`]),
        ...codes
          .filter((code) => !known.has(code))
          .map((code) => `${name}: ${status} \`${code}\` is no code`),
      ]),
    );
    expect(bad).toEqual([]);
  });

  it("names the codes behind every 409, 410 and 422 an operation documents", async () => {
    const bad = (await operations()).flatMap(({ name, op }) => {
      const named = new Set(mentions(op.description ?? "").map((m) => m.status));
      return NAMED_STATUSES.filter((status) => op.responses[status] && !named.has(status)).map(
        (status) => `${name}: documents ${status} but names no code for it`,
      );
    });
    expect(bad).toEqual([]);
  });

  it("says If-Match on every operation that documents 412", async () => {
    const bad = (await operations())
      .filter(({ op }) => op.responses["412"] && !op.description?.includes("If-Match"))
      .map(({ name }) => name);
    expect(bad).toEqual([]);
  });

  it("reads the mention syntax the checks rely on", () => {
    expect(mentions("answers 409 `a_b` or `c`, and 422 `d`, `e` and `f`; 404 otherwise")).toEqual([
      { status: "409", codes: ["a_b", "c"] },
      { status: "422", codes: ["d", "e", "f"] },
    ]);
  });
});
