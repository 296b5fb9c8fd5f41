import { describe, expect, it } from "vitest";
import { NOTIFY_ERROR_CODES } from "../src/errors";
import { call, callJson } from "./helpers/worker";

const routes: [string, string][] = [
  ["POST", "/v1/emails/send"],
  ["POST", "/v1/emails/raw"],
  ["POST", "/v1/push/send"],
  ["POST", "/v1/whatsapp/send"],
  ["POST", "/v1/whatsapp/blast"],
  ["GET", "/v1/templates"],
  ["GET", "/v1/templates/WELCOME"],
  ["PUT", "/v1/templates/WELCOME"],
  ["POST", "/v1/templates/WELCOME/preview"],
  ["POST", "/v1/devices"],
  ["DELETE", "/v1/devices/some-token"],
  ["GET", "/v1/messages"],
  ["GET", "/v1/messages/01JD0000000000000000000000"],
  ["POST", "/v1/messages/01JD0000000000000000000000/retry"],
  ["POST", "/v1/fanout"],
  ["GET", "/v1/fanout/summary?reference=x"],
  ["GET", "/v1/preferences/some-user"],
  ["PUT", "/v1/preferences/some-user"],
  ["GET", "/openapi.json"],
];

describe("internal key", () => {
  it("lets /health through without a key", async () => {
    const res = await callJson("GET", "/health", { key: null });
    expect(res.status).toBe(200);
    expect(res.body).toEqual({ status: "ok", channels: { email: true, push: false, whatsapp: true } });
  });

  it.each(routes)("%s %s answers 401 problem+json without a key", async (method, path) => {
    const res = await call(method, path, {
      key: null,
      body: method === "GET" || method === "DELETE" ? undefined : {},
    });
    expect(res.status).toBe(401);
    expect(res.headers.get("content-type")).toBe("application/problem+json");
    expect(await res.json()).toMatchObject({
      type: "https://warga.id/problems/invalid_service_key",
      // Indonesian when the caller names no language, the API's title for the API's code.
      title: "Kunci layanan tidak valid",
      status: 401,
      code: "invalid_service_key",
      detail: expect.any(String),
    });
  });

  it.each(["wrong-key", "test-internal-ke", "test-internal-key-x", "TEST-INTERNAL-KEY", ""])(
    "rejects the key %j",
    async (key) => {
      expect((await call("GET", "/v1/templates", { key })).status).toBe(401);
    },
  );

  it("accepts the right key", async () => {
    expect((await call("GET", "/v1/templates")).status).toBe(200);
  });

  it("fails closed with 503 when the service has no key configured", async () => {
    const res = await callJson("GET", "/v1/templates", { env: { INTERNAL_API_KEY: undefined } });
    expect(res.status).toBe(503);
    expect(res.body).toMatchObject({ code: "service_unconfigured" });
  });
});

describe("request errors are problem+json", () => {
  it("maps schema violations to 400 with field errors", async () => {
    const res = await callJson<{ code: string; errors: { field: string; message: string }[] }>(
      "POST",
      "/v1/whatsapp/send",
      {
        body: { to: "not-a-phone", message: "" },
      },
    );
    expect(res.status).toBe(400);
    expect(res.headers.get("content-type")).toBe("application/problem+json");
    expect(res.body.code).toBe("invalid_input");
    expect(res.body.errors.map((e) => e.field).sort()).toEqual(["message", "to"]);
  });

  it("answers 400 malformed_json for a malformed body instead of treating it as {}", async () => {
    const res = await callJson("POST", "/v1/templates/WELCOME/preview", { body: "{not json" });
    expect(res.status).toBe(400);
    expect(res.body).toMatchObject({ code: "malformed_json" });
  });

  it("answers 415 for a body that is not JSON", async () => {
    const res = await callJson("POST", "/v1/whatsapp/send", {
      body: "to=1&message=2",
      headers: { "content-type": "application/x-www-form-urlencoded" },
    });
    expect(res.status).toBe(415);
    expect(res.body).toMatchObject({ code: "unsupported_media_type" });
  });

  it("answers 404 problem+json for an unknown route, never a stack trace", async () => {
    const res = await callJson("GET", "/v1/nothing-here");
    expect(res.status).toBe(404);
    expect(res.body).toMatchObject({ code: "route_not_found", status: 404 });
    // No stack frame (`    at fn (file:line)`); "Alamat tidak ditemukan" is fine.
    expect(JSON.stringify(res.body)).not.toMatch(/\s{2,}at\s|stack/);
  });

  it("serves an OpenAPI 3.1 document describing every route with the problem schema", async () => {
    const res = await callJson<{
      openapi: string;
      paths: Record<
        string,
        Record<string, { responses: Record<string, { content?: Record<string, unknown> }> }>
      >;
    }>("GET", "/openapi.json");
    expect(res.status).toBe(200);
    expect(res.body.openapi).toMatch(/^3\.1/);
    expect(Object.keys(res.body.paths)).toEqual(
      expect.arrayContaining([
        "/health",
        "/v1/emails/send",
        "/v1/whatsapp/blast",
        "/v1/messages/{id}/retry",
        "/v1/devices/{token}",
      ]),
    );
    expect(res.body.paths["/v1/emails/send"]?.post?.responses["401"]?.content).toHaveProperty([
      "application/problem+json",
    ]);
  });

  it("lists every one of its own error codes in the problem schema", async () => {
    type Schema = { properties: { code: { enum?: string[] } } };
    const res = await callJson<{
      paths: Record<
        string,
        Record<string, { responses: Record<string, { content: Record<string, { schema: Schema }> }> }>
      >;
    }>("GET", "/openapi.json");
    const schema =
      res.body.paths["/v1/emails/send"]?.post?.responses["401"]?.content["application/problem+json"]?.schema;
    expect(schema?.properties.code.enum).toContain("template_not_found");
    expect([...(schema?.properties.code.enum ?? [])].sort()).toEqual([...NOTIFY_ERROR_CODES].sort());
  });
});
