import { createExecutionContext } from "cloudflare:test";
import { describe, expect, it } from "vitest";
import { buildApp } from "../../src/app";
import { bindings, callJson } from "../helpers/harness";

describe("GET /api/health", () => {
  it("is 200 ok when the platform database answers", async () => {
    const res = await callJson<{
      status: string;
      version: string;
      checks: Record<string, { status: string }>;
    }>("/api/health");
    expect(res.status).toBe(200);
    expect(res.body.status).toBe("ok");
    expect(res.body.version).toBe("0.1.0");
    expect(res.body.checks.platformDb?.status).toBe("ok");
  });

  it("is 503 with the failing check when the platform database does not answer", async () => {
    const broken = {
      ...bindings,
      PLATFORM_DB: {
        prepare() {
          throw new Error("D1_ERROR: network connection lost");
        },
      },
    };
    const res = await buildApp().fetch(
      new Request("http://api.test/api/health"),
      broken,
      createExecutionContext(),
    );
    expect(res.status).toBe(503);
    const body = (await res.json()) as { status: string; checks: Record<string, unknown> };
    expect(body.status).toBe("degraded");
    expect(body.checks.platformDb).toMatchObject({ status: "fail", error: "unreachable" });
  });
});
