import { describe, expect, it } from "vitest";
import { call, callJson, createTenant, expectProblem } from "../helpers/harness";

describe("problem+json everywhere", () => {
  it("answers an unknown route with 404 problem+json and a request id", async () => {
    const res = await callJson("/api/nope");
    expectProblem(res, 404, "route_not_found");
    expect(res.headers.get("X-Request-Id")).toMatch(/^[0-9A-Z]{26}$/);
    expect(res.body).toMatchObject({ requestId: res.headers.get("X-Request-Id") });
  });

  it("keeps a sane caller request id", async () => {
    const res = await call("/api/health", { headers: { "X-Request-Id": "gate-7:abc" } });
    expect(res.headers.get("X-Request-Id")).toBe("gate-7:abc");
    const bad = await call("/api/health", { headers: { "X-Request-Id": "<script>" } });
    expect(bad.headers.get("X-Request-Id")).not.toBe("<script>");
  });

  it("maps validation errors to 400 with errors[] naming the field", async () => {
    const res = await callJson("/api/auth/login", { body: { email: "not-an-email", password: "" } });
    expectProblem(res, 400, "invalid_input");
    const fields = (res.body as { errors: { field: string }[] }).errors.map((e) => e.field);
    expect(fields).toContain("email");
    expect(fields).toContain("password");
  });

  it("rejects malformed JSON instead of reading it as {}", async () => {
    const res = await callJson("/api/auth/login", { body: "{ email: oops" });
    expectProblem(res, 400, "malformed_json");
  });

  it("never leaks a stack trace from a thrown bug", async () => {
    const tenant = await createTenant();
    const admin = await tenant.member("admin");
    // A cursor is only ever an id; a huge one is rejected by validation, not by the database.
    const res = await callJson(`/api/kependudukan/units?limit=abc`, { token: admin.token });
    expectProblem(res, 400, "invalid_input");
    expect(JSON.stringify(res.body)).not.toMatch(/at .*\.ts:\d+/);
  });

  it("sets security headers", async () => {
    const res = await call("/api/health");
    expect(res.headers.get("X-Content-Type-Options")).toBe("nosniff");
    expect(res.headers.get("Content-Security-Policy")).toContain("default-src 'self'");
  });

  it("answers CORS only for configured origins", async () => {
    const ok = await call("/api/health", {
      method: "OPTIONS",
      headers: { Origin: "http://localhost:5173", "Access-Control-Request-Method": "GET" },
    });
    expect(ok.headers.get("Access-Control-Allow-Origin")).toBe("http://localhost:5173");
    const other = await call("/api/health", {
      method: "OPTIONS",
      headers: { Origin: "https://evil.example", "Access-Control-Request-Method": "GET" },
    });
    expect(other.headers.get("Access-Control-Allow-Origin")).toBeNull();
  });
});

describe("dependency overload", () => {
  it("answers a Durable Object's overload as 503 busy with Retry-After, not 500", async () => {
    const { Hono } = await import("hono");
    const { onError } = await import("../../src/core/http/problem");
    const app = new Hono();
    app.use("*", async (c, next) => {
      c.set("requestId" as never, "r1" as never);
      await next();
    });
    app.get("/", () => {
      throw Object.assign(new Error("Durable Object is overloaded. Too many requests queued."), {
        overloaded: true,
      });
    });
    app.onError(onError as never);
    const res = await app.request("/");
    expect(res.status).toBe(503);
    expect(res.headers.get("Retry-After")).toBe("1");
    expect(await res.json()).toMatchObject({ code: "busy" });
  });
});
