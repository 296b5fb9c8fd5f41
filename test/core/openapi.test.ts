import { env } from "cloudflare:workers";
import { validate } from "@readme/openapi-parser";
import { describe, expect, it } from "vitest";
import { ERROR_CODES, routeTable } from "../../src/app";
import { call, callJson } from "../helpers/harness";

interface OpenApiDoc {
  openapi: string;
  paths: Record<string, Record<string, { security?: unknown[]; responses: Record<string, unknown> }>>;
  components: {
    securitySchemes: Record<string, unknown>;
    schemas: Record<string, { properties?: Record<string, { type?: string; enum?: string[] }> }>;
  };
  security: unknown[];
}

describe("OpenAPI and the interactive reference", () => {
  it("documents every route of the route table, with bearer security", async () => {
    const res = await callJson<OpenApiDoc>("/openapi.json");
    expect(res.status).toBe(200);
    expect(res.body.openapi).toMatch(/^3\.1/);
    expect(res.body.components.securitySchemes.bearerAuth).toMatchObject({ type: "http", scheme: "bearer" });
    expect(res.body.security).toEqual([{ bearerAuth: [] }]);
    for (const route of routeTable) {
      const path = route.path.replace(/:(\w+)/g, "{$1}");
      const op = res.body.paths[path]?.[route.method];
      expect(op, `${route.method} ${route.path}`).toBeDefined();
      if (route.access.scope === "public" || route.access.scope === "public-tenant") {
        expect(op?.security ?? [], `${route.path} is public`).not.toContainEqual({ bearerAuth: [] });
        expect(op?.security, `${route.path} declares its security`).toBeDefined();
      } else if (route.access.scope === "device") {
        // Gate devices carry their own key, not a user token.
        expect(op?.security, `${route.path} takes a device key`).toEqual([{ gateDeviceKey: [] }]);
        expect(op?.responses["401"], `${route.path} documents 401`).toBeDefined();
      } else {
        expect(op?.security, `${route.path} needs a token`).toBeUndefined();
        expect(op?.responses["401"], `${route.path} documents 401`).toBeDefined();
      }
    }
  });

  it("is a valid OpenAPI 3.1 document, every operationId unique", async () => {
    const res = await callJson<OpenApiDoc>("/openapi.json");
    // The validator dereferences in place: it gets a copy.
    const result = await validate(structuredClone(res.body) as never, {
      validate: { errors: { colorize: false } },
    });
    expect(result.valid ? [] : result.errors, "the OpenAPI validator's findings").toEqual([]);
    expect(result.warnings).toEqual([]);
    // Unique operationIds (which the validator enforces) spelt out: chanfana names an operation after
    // its endpoint class, so one class mounted on two paths gives two operations one id.
    const ids = Object.values(res.body.paths).flatMap((item) =>
      Object.values(item).map((op) => (op as { operationId?: string }).operationId),
    );
    expect(ids.filter((id, i) => ids.indexOf(id) !== i)).toEqual([]);
    expect(ids).not.toContain(undefined);
  });

  it("declares error responses as problem+json", async () => {
    const res = await callJson<OpenApiDoc>("/openapi.json");
    const op = res.body.paths["/api/platform/tenants"]?.post as unknown as {
      responses: Record<string, { content: Record<string, unknown> }>;
    };
    expect(Object.keys(op.responses["409"]?.content ?? {})).toEqual(["application/problem+json"]);
  });

  it("lists every error code in the Problem schema, so a client can generate its switch", async () => {
    const res = await callJson<OpenApiDoc>("/openapi.json");
    const code = res.body.components.schemas.Problem?.properties?.code;
    expect(code?.enum).toContain("slug_taken");
    expect(code?.enum).toContain("busy");
    expect([...(code?.enum ?? [])].sort()).toEqual([...ERROR_CODES].sort());
  });

  it("serves a /swagger page whose scripts and styles are local", async () => {
    const res = await call("/swagger");
    expect(res.status).toBe(200);
    const html = await res.text();
    const sources = [...html.matchAll(/(?:src|href)="([^"]+)"/g)].map((m) => m[1]);
    expect(sources.length).toBeGreaterThanOrEqual(3);
    for (const src of sources) {
      expect(src).toMatch(/^\/swagger-ui\//);
    }
    const bundle = await env.ASSETS.fetch("http://api.test/swagger-ui/swagger-ui-bundle.js");
    expect(bundle.status).toBe(200);
    const init = await env.ASSETS.fetch("http://api.test/swagger-ui/init.js");
    expect(await init.text()).toContain("/openapi.json");
  });
});
