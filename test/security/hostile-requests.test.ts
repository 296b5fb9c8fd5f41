import { afterAll, afterEach, beforeAll, describe, expect, it, type MockInstance, vi } from "vitest";
import { MAX_JSON_DEPTH, nestsDeeperThan, unsafeTextPaths } from "../../src/core/http/body";
import { setLogLevel } from "../../src/core/http/log";
import { call, callJson, createTenant, expectProblem } from "../helpers/harness";

/**
 * Issue 31, N2 and N3: a JSON body nested past the cap is 400 `too_deep` before anything walks it, on
 * every JSON route (sign-in and the payment callback included), and a malformed `%` escape anywhere in a
 * URL is logged as sent and never answered 500.
 */

const nested = (depth: number, inner = "1") => `${"[".repeat(depth)}${inner}${"]".repeat(depth)}`;

describe("JSON nesting depth (N2)", () => {
  it("counts brackets outside strings only", () => {
    expect(nestsDeeperThan(nested(MAX_JSON_DEPTH), MAX_JSON_DEPTH)).toBe(false);
    expect(nestsDeeperThan(nested(MAX_JSON_DEPTH + 1), MAX_JSON_DEPTH)).toBe(true);
    expect(nestsDeeperThan(JSON.stringify({ a: "[".repeat(500) }), MAX_JSON_DEPTH)).toBe(false);
    expect(nestsDeeperThan(JSON.stringify({ a: `\\"${"{".repeat(500)}` }), MAX_JSON_DEPTH)).toBe(false);
    expect(nestsDeeperThan(`{"a":${nested(70)}}`, MAX_JSON_DEPTH)).toBe(true);
  });

  it("walks any depth without recursion", () => {
    let value: unknown = "bad\u0000text";
    for (let i = 0; i < 100_000; i++) {
      value = i % 2 ? [value] : { k: value };
    }
    const found = unsafeTextPaths(value);
    expect(found).toHaveLength(1);
    expect(found[0]?.split(".")).toHaveLength(100_000);
    expect(unsafeTextPaths({ a: ["ok", "x\u202Ey"], b: { c: "\u001b[31m" } })).toEqual(["a.1", "b.c"]);
  });

  for (const path of ["/api/auth/login", "/api/payments/gateway/callback", "/api/auth/magic-link"]) {
    it(`answers 400 too_deep on ${path} for 5,000 levels in 10 KB`, async () => {
      expectProblem(await callJson(path, { method: "POST", body: nested(5000) }), 400, "too_deep");
      const objects = `${'{"a":'.repeat(5000)}1${"}".repeat(5000)}`;
      expectProblem(await callJson(path, { method: "POST", body: objects }), 400, "too_deep");
    });
  }

  it("lets a body at the cap through to the schema", async () => {
    const body = `{"email":${nested(MAX_JSON_DEPTH - 1)}}`;
    expectProblem(await callJson("/api/auth/login", { method: "POST", body }), 400, "invalid_input");
  });
});

describe("malformed percent-encoding (N3)", () => {
  let spies: MockInstance[] = [];
  let token: string;
  beforeAll(async () => {
    const tenant = await createTenant();
    token = (await tenant.member("admin")).token;
    setLogLevel("info");
  });
  afterAll(() => setLogLevel("warn"));
  afterEach(() => {
    for (const spy of spies) {
      spy.mockRestore();
    }
    spies = [];
  });
  const logged = () => {
    const lines: string[] = [];
    for (const method of ["log", "warn", "error"] as const) {
      spies.push(vi.spyOn(console, method).mockImplementation((line: unknown) => lines.push(String(line))));
    }
    return lines;
  };

  const BAD = ["%ff", "%C3%28", "%", "%E0%A4%A", "%ED%A0%80", "%00"];

  for (const bad of BAD) {
    it(`never answers 500 for ${bad} in a secret route's query or path`, async () => {
      const lines = logged();
      for (const path of [
        `/api/auth/oauth/google/callback?x=${bad}`,
        `/api/auth/oauth/google/callback?code=${bad}`,
        `/api/public/support-tickets/${bad}`,
        `/api/auth/oauth/google/callback?code=a&state=${bad}`,
        `/api/kependudukan/kk?limit=${bad}`,
        `/api/kependudukan/kk?q=${bad}`,
        `/api/kependudukan/kk/${bad}`,
      ]) {
        const res = await call(path, { token });
        expect(res.status, path).toBeLessThan(500);
        await res.arrayBuffer();
      }
      const access = lines.filter((l) => l.includes('"event":"request"'));
      expect(access.length).toBeGreaterThanOrEqual(7);
      expect(lines.filter((l) => l.includes('"level":"error"'))).toEqual([]);
    });
  }

  it("logs a query it cannot decode as sent, escaped", async () => {
    const lines = logged();
    const res = await call("/api/kependudukan/kk?limit=%C3%28&q=3174", { token });
    expect(res.status).toBe(400);
    const line = lines.find((l) => l.includes('"event":"request"')) ?? "";
    expect(line).toContain("/api/kependudukan/kk?");
    expect(line).not.toContain("3174");
  });
});
