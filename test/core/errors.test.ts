import {
  ApiException,
  ConflictException,
  MethodNotAllowedException,
  NotFoundException,
  TooManyRequestsException,
  UnauthorizedException,
} from "chanfana";
import { Hono } from "hono";
import { describe, expect, it } from "vitest";
import { ERROR_CODES, ProblemSchema, type UnlistedErrorCode } from "../../src/app";
import { platformDb } from "../../src/core/db/platform";
import { tenants } from "../../src/core/db/platform-schema";
import {
  CORE_ERROR_CODES,
  Conflict,
  type ErrorCode,
  Forbidden,
  Invalid,
  NotFound,
} from "../../src/core/errors";
import { onError, PROBLEM_TYPE_BASE, problemBody } from "../../src/core/http/problem";
import { newId } from "../../src/core/ids";
import {
  PROBLEM_TYPE_BASE as NOTIFY_PROBLEM_TYPE_BASE,
  problemResponse as notifyProblemResponse,
} from "../../workers/notify/src/http/problem";
import { bindings, call, callJson, createTenant, expectProblem, unique } from "../helpers/harness";
import { insertTicket } from "../modules/support/helpers";

/** A bare app whose only route throws `error`, answered by the real onError. */
async function answerTo(error: unknown) {
  const app = new Hono();
  app.use("*", async (c, next) => {
    c.set("requestId" as never, "r1" as never);
    await next();
  });
  app.get("/", () => {
    throw error;
  });
  app.onError(onError as never);
  const res = await app.request("/");
  return { status: res.status, headers: res.headers, body: (await res.json()) as Record<string, unknown> };
}

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

/** Every header of an answer but the request id (which differs per request). */
function headerTable(res: { headers: Headers }) {
  return Object.fromEntries([...res.headers].filter(([k]) => k !== "x-request-id"));
}

const SECURITY_HEADERS = {
  "content-security-policy":
    "default-src 'self'; script-src 'self'; style-src 'self' 'unsafe-inline'; img-src 'self' data:; frame-ancestors 'none'",
  "cross-origin-opener-policy": "same-origin",
  "cross-origin-resource-policy": "same-origin",
  "origin-agent-cluster": "?1",
  "referrer-policy": "no-referrer",
  "strict-transport-security": "max-age=31536000; includeSubDomains",
  "x-content-type-options": "nosniff",
  "x-dns-prefetch-control": "off",
  "x-download-options": "noopen",
  "x-frame-options": "SAMEORIGIN",
  "x-permitted-cross-domain-policies": "none",
  "x-xss-protection": "0",
};

describe("the headers of every answer (built once per isolate, ADR 0015)", () => {
  it("a JSON answer, a problem and a secret route's answer carry the same security and CORS headers", async () => {
    const cors = {
      "access-control-expose-headers":
        "X-Request-Id,Retry-After,RateLimit,RateLimit-Policy,Idempotent-Replayed,Content-Language,X-D1-Bookmark,ETag",
      vary: "Origin",
    };
    const ok = await call("/api/health", { headers: { Origin: "http://localhost:5173" } });
    expect(headerTable(ok)).toEqual({
      ...SECURITY_HEADERS,
      ...cors,
      "access-control-allow-origin": "http://localhost:5173",
      "content-type": "application/json",
    });
    const missing = await call("/api/nope");
    // A problem also says its language (issue 30 item 3): Indonesian, as no Accept-Language was sent (issue 42).
    const problem = { "content-language": "id", vary: "Accept-Language, Origin" };
    expect(headerTable(missing)).toEqual({
      ...SECURITY_HEADERS,
      ...cors,
      ...problem,
      "content-type": "application/problem+json",
    });
    const unauthorized = await call("/api/kependudukan/units", {
      headers: { Origin: "https://evil.example" },
    });
    expect(unauthorized.status).toBe(401);
    expect(headerTable(unauthorized)).toEqual({
      ...SECURITY_HEADERS,
      ...cors,
      ...problem,
      "content-type": "application/problem+json",
    });
    expect(ok.headers.get("X-Request-Id")).toMatch(/^[0-9A-Z]{26}$/);
    expect(missing.headers.get("X-Request-Id")).not.toBe(ok.headers.get("X-Request-Id"));
  });

  it("a preflight answers 204 with the CORS grant for a configured origin only", async () => {
    const preflight = { "Access-Control-Request-Method": "PUT", "Access-Control-Request-Headers": "x-other" };
    const ok = await call("/api/kependudukan/units/x", {
      method: "OPTIONS",
      headers: { Origin: "http://127.0.0.1:5173", ...preflight },
    });
    expect(ok.status).toBe(204);
    const grant = {
      "access-control-allow-headers":
        "Authorization,Content-Type,X-Request-Id,Idempotency-Key,X-D1-Bookmark,If-Match,If-None-Match",
      "access-control-allow-methods": "GET,POST,PUT,PATCH,DELETE,OPTIONS",
      "access-control-expose-headers":
        "X-Request-Id,Retry-After,RateLimit,RateLimit-Policy,Idempotent-Replayed,Content-Language,X-D1-Bookmark,ETag",
      "access-control-max-age": "600",
      vary: "Origin, Access-Control-Request-Headers",
    };
    expect(headerTable(ok)).toEqual({
      ...SECURITY_HEADERS,
      ...grant,
      "access-control-allow-origin": "http://127.0.0.1:5173",
    });
    expect(ok.headers.get("X-Request-Id")).toMatch(/^[0-9A-Z]{26}$/);
    const other = await call("/api/kependudukan/units/x", {
      method: "OPTIONS",
      headers: { Origin: "https://evil.example", ...preflight },
    });
    expect(other.status).toBe(204);
    expect(headerTable(other)).toEqual({ ...SECURITY_HEADERS, ...grant });
  });
});

describe("dependency overload", () => {
  it("answers a Durable Object's overload as 503 busy with Retry-After, not 500", async () => {
    const res = await answerTo(
      Object.assign(new Error("Durable Object is overloaded. Too many requests queued."), {
        overloaded: true,
      }),
    );
    expect(res.status).toBe(503);
    expect(res.headers.get("Retry-After")).toBe("1");
    expect(res.body).toMatchObject({ code: "busy" });
  });

  it("reads the error's overloaded property, not its message", async () => {
    const res = await answerTo(new Error("The queue is overloaded, says a library"));
    expect(res.status).toBe(500);
    expect(res.body).toMatchObject({ code: "internal_error" });
    expect(res.headers.get("Retry-After")).toBeNull();
  });
});

describe("closed error codes", () => {
  it("refuses a code outside the union at compile time", () => {
    // If `code` were a plain string this would compile, and tsc would fail on the unused directive.
    // @ts-expect-error "slug_takne" is not an ErrorCode
    const typo = new Conflict("slug_takne", "A typo.");
    expect(ERROR_CODES).not.toContain(typo.code);
    // @ts-expect-error the default codes are typed too
    new NotFound("Unit", "unit_missing");
  });

  it("holds the codes the platform kit answers with", () => {
    const kit: ErrorCode[] = [
      "invalid_device_key",
      "device_inactive",
      "missing_device_key",
      "payload_too_large",
      "unsupported_media_type",
      "busy",
      "route_not_found",
      "malformed_json",
      "internal_error",
      "tenant_not_found",
      "tenant_suspended",
      "feature_disabled",
      "forbidden_role",
    ];
    expect(CORE_ERROR_CODES).toEqual(expect.arrayContaining(kit));
    expect(new Set(ERROR_CODES).size).toBe(ERROR_CODES.length);
  });

  it("lists at run time every code a module adds to the union", () => {
    // Fails tsc, naming the code, when a module's errors.ts adds a code to ModuleErrorCodes that its
    // defineModule({ errorCodes }) does not hand to src/app.ts (so /openapi.json would not list it).
    const unlisted: [UnlistedErrorCode] extends [never] ? "none" : UnlistedErrorCode = "none";
    expect(unlisted).toBe("none");
    expect(ERROR_CODES.slice(0, CORE_ERROR_CODES.length)).toEqual(CORE_ERROR_CODES);
  });

  it("lets the Problem schema accept only a known code", () => {
    const body = problemBody(409, "slug_taken", "Taken.");
    expect(ProblemSchema.safeParse(body).success).toBe(true);
    expect(ProblemSchema.safeParse({ ...body, code: "slug_takne" }).success).toBe(false);
  });

  it("answers a thrown domain error with its own code and the status of its kind", async () => {
    const res = await answerTo(new Forbidden("tenant_suspended", "Suspended."));
    expect(res.status).toBe(403);
    expect(res.body).toMatchObject({
      code: "tenant_suspended",
      type: `${PROBLEM_TYPE_BASE}tenant_suspended`,
    });
    const invalid = await answerTo(
      new Invalid("invalid_date", "Bad date.", [{ field: "from", message: "x" }]),
    );
    expect(invalid.body).toMatchObject({ status: 400, errors: [{ field: "from", message: "x" }] });
  });
});

describe("chanfana exceptions", () => {
  const sized = (status: number) => Object.assign(new ApiException("Refused."), { status });

  it.each([
    ["404", new NotFoundException(), 404, "not_found"],
    ["401", new UnauthorizedException(), 401, "unauthorized"],
    ["405", new MethodNotAllowedException(), 405, "method_not_allowed"],
    ["409", new ConflictException(), 409, "conflict"],
    ["413", sized(413), 413, "payload_too_large"],
    ["415", sized(415), 415, "unsupported_media_type"],
    ["another 4xx", sized(418), 418, "invalid_input"],
  ] as const)("maps %s by its status", async (_name, error, status, code) => {
    const res = await answerTo(error);
    expect(res.status).toBe(status);
    expect(res.body).toMatchObject({ status, code });
    expect(res.body.detail).not.toBe("");
  });

  it("keeps a 429's Retry-After", async () => {
    const res = await answerTo(new TooManyRequestsException("Slow down.", 30));
    expect(res.status).toBe(429);
    expect(res.body).toMatchObject({ code: "rate_limited" });
    expect(res.headers.get("Retry-After")).toBe("30");
  });

  it("leaves a 5xx to the unknown-error path", async () => {
    const res = await answerTo(new ApiException("Internal detail."));
    expect(res.status).toBe(500);
    expect(res.body).toMatchObject({ code: "internal_error" });
  });
});

describe("one problem type base for both Workers", () => {
  it("gives the notify Worker's problems the API's base", async () => {
    expect(NOTIFY_PROBLEM_TYPE_BASE).toBe(PROBLEM_TYPE_BASE);
    const notify = (await notifyProblemResponse({
      status: 404,
      code: "route_not_found",
      detail: "Nothing.",
      lang: "en",
    }).json()) as { type: string };
    expect(notify.type).toBe(problemBody(404, "route_not_found", "Nothing.").type);
    expect(notify.type).toBe("https://warga.id/problems/route_not_found");
  });
});

describe("HTML pages answer with the same kind → status map", () => {
  it("answers the reply page's non-multipart post as 415, an unsupported media kind", async () => {
    const { token } = await insertTicket({ tenant: null, createdAt: new Date().toISOString() });
    const res = await call(`/support/reply/${token}`, {
      method: "POST",
      headers: { "Content-Type": "text/plain", "Accept-Language": "id" },
      body: "message=halo",
    });
    expect(res.status).toBe(415);
    expect(res.headers.get("Content-Type")).toContain("text/html");
    expect(await res.text()).toContain("Formulir tidak lengkap");
  });

  it("answers an unknown reply token as the HTML not-found page even when the upload is refused first", async () => {
    const res = await call(`/support/reply/${"E".repeat(43)}`, {
      method: "POST",
      headers: { "Content-Type": "text/plain" },
      body: "message=halo",
    });
    expect(res.status).toBe(404);
    expect(res.headers.get("Content-Type")).toContain("text/html");
  });

  it("answers the letter page as HTML with the status of the domain error's kind", async () => {
    const slug = unique("rt");
    const now = new Date().toISOString();
    // A tenant whose database slot this deployment does not bind: the lookup fails as unavailable.
    await platformDb(bindings).insert(tenants).values({
      id: newId(),
      slug,
      name: "RT Lepas",
      type: "RT",
      flags: "{}",
      slot: 9999,
      status: "active",
      updatedAt: now,
    });
    const res = await call(`/verify/surat/${slug}.ABCDEFGH`, { headers: { "Accept-Language": "id" } });
    expect(res.status).toBe(503);
    expect(res.headers.get("Content-Type")).toContain("text/html");
    expect(await res.text()).toContain("Verifikasi tidak dapat dilakukan");
  });
});
