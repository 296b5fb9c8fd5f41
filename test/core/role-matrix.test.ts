import { describe, expect, it } from "vitest";
import { routeTable } from "../../src/app";
import { type Role, TENANT_ROLES } from "../../src/core/context";
import { type CallInit, call, createTenant, operatorToken } from "../helpers/harness";

/**
 * Walks the route table: for every route and every role, an allowed role gets past the guard (any
 * status but 401/403 from the guard) and every other role gets 403. Routes answer with fake ids and
 * empty bodies, so a pass shows up as 400/404/200, never as the guard's 403.
 */
const ROLES: Role[] = [...TENANT_ROLES, "super_admin"];

function allowed(access: (typeof routeTable)[number]["access"], role: Role): boolean {
  switch (access.scope) {
    case "public":
    case "user":
      return true;
    case "platform":
      return role === "super_admin";
    case "service":
      return false;
    case "tenant":
      return role !== "super_admin" && access.roles.includes(role);
  }
}

const GUARD_CODES = new Set(["forbidden_role", "unauthorized", "invalid_token", "invalid_service_key"]);

describe("role matrix", () => {
  it("lets exactly the declared roles through every route's guard", async () => {
    const tenant = await createTenant();
    const tokens = new Map<Role, string>();
    for (const role of TENANT_ROLES) {
      tokens.set(role, (await tenant.member(role)).token);
    }
    tokens.set("super_admin", await operatorToken());
    const failures: string[] = [];
    for (const route of routeTable) {
      if (route.access.scope === "public") {
        continue;
      }
      const path = route.path.replace(/:(\w+)/g, "01HZZZZZZZZZZZZZZZZZZZZZZZ");
      for (const role of ROLES) {
        const init: CallInit = { method: route.method.toUpperCase(), token: tokens.get(role) };
        if (route.method !== "get" && route.method !== "delete") {
          init.body = {};
        }
        const res = await call(path, init);
        const body = res.headers.get("Content-Type")?.includes("json")
          ? ((await res.json()) as { code?: string })
          : {};
        const blocked = (res.status === 403 || res.status === 401) && GUARD_CODES.has(body.code ?? "");
        if (allowed(route.access, role) === blocked) {
          failures.push(`${route.method.toUpperCase()} ${route.path} as ${role}: ${res.status} ${body.code}`);
        }
      }
      const anonymous = await call(path, { method: route.method.toUpperCase() });
      if (anonymous.status !== 401) {
        failures.push(`${route.method.toUpperCase()} ${route.path} without a token: ${anonymous.status}`);
      }
    }
    expect(failures).toEqual([]);
  });
});
