import { createExecutionContext } from "cloudflare:test";
import { describe, expect, it } from "vitest";
import { buildApp } from "../../../src/app";
import { type Bindings, isLoopbackHost, loadConfig } from "../../../src/core/env";
import { bindings, createTenant } from "../../helpers/harness";

/** ENVIRONMENT=local without gateway keys: the payment simulator's conditions. */
const withVars = (vars: Record<string, string | undefined>) =>
  ({ ...bindings, ...vars }) as unknown as Bindings;
const localVars = {
  ENVIRONMENT: "local",
  MIDTRANS_SERVER_KEY: undefined,
  XENDIT_SECRET_KEY: undefined,
  XENDIT_CALLBACK_TOKEN: undefined,
};
const local = withVars(localVars);

/** Issue 31 ("Also"): the local payment simulator refuses to start unless the environment is local. */
describe("the payment simulator runs only on this machine", () => {
  it("a Worker configured ENVIRONMENT=local with a public APP_URL refuses to start; a loopback one starts", () => {
    for (const url of ["https://api.warga.id", "https://warga.example.workers.dev", "http://10.0.0.5:8787"]) {
      expect(() => loadConfig(withVars({ ...localVars, APP_URL: url }))).toThrow(
        /ENVIRONMENT=local .*APP_URL must be a loopback/,
      );
    }
    for (const url of [
      "http://127.0.0.1:8787",
      "http://localhost:8787",
      "http://api.localhost",
      "http://[::1]:8787",
    ]) {
      expect(loadConfig(withVars({ ...localVars, APP_URL: url })).ENVIRONMENT).toBe("local");
    }
    // Deployed environments keep their public URL.
    expect(loadConfig(withVars({ ENVIRONMENT: "production", APP_URL: "https://api.warga.id" })).APP_URL).toBe(
      "https://api.warga.id",
    );
    expect(isLoopbackHost("127.example.com")).toBe(false);
    expect(isLoopbackHost("localhost.example.com")).toBe(false);
  });

  it("answers every request of such a Worker with 500, the simulator's page included", async () => {
    const app = buildApp();
    const res = await app.fetch(
      new Request("https://api.warga.id/dev/payments/uji-01JUNKNOWNORDER000000000000"),
      withVars({ ...localVars, APP_URL: "https://api.warga.id" }),
      createExecutionContext(),
    );
    expect(res.status).toBe(500);
  });

  it("the checkout page that settles a simulated invoice does not exist when reached by another host", async () => {
    const tenant = await createTenant();
    const admin = await tenant.member("admin");
    const app = buildApp();
    const at = (origin: string, path: string, init: RequestInit = {}) =>
      app.fetch(new Request(`${origin}${path}`, init), local, createExecutionContext());
    const issued = await at("http://127.0.0.1:8787", "/api/billing/invoices", {
      method: "POST",
      headers: { Authorization: `Bearer ${admin.token}`, "Content-Type": "application/json" },
      body: JSON.stringify({ plan: "dasar", months: 1 }),
    });
    expect(issued.status).toBe(201);
    const { paymentUrl } = (await issued.json()) as { paymentUrl: string };
    const path = new URL(paymentUrl).pathname;

    const settle = { method: "POST", headers: { "Content-Type": "application/x-www-form-urlencoded" } };
    expect((await at("https://api.warga.id", path)).status).toBe(404);
    expect((await at("https://api.warga.id", path, { ...settle, body: "result=settlement" })).status).toBe(
      404,
    );
    expect((await at("http://127.0.0.1:8787", path)).status).toBe(200);
  });
});
