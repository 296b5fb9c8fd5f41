import { beforeAll, describe, expect, it } from "vitest";
import { modules, routeTable } from "../../src/app";
import { TENANT_ROLES, type TenantRole } from "../../src/core/context";
import type { RouteDef } from "../../src/core/http/access";
import type { Expectation } from "../helpers/access";
import { createWorld, type World } from "../helpers/factories";
import { call } from "../helpers/harness";
import { EXPECTED_ACCESS, KNOWN_DISAGREEMENTS } from "../modules/access";
import { FACTORIES } from "../modules/factories";

/**
 * Every route with an id in its path, walked with a real object of tenant A (its module's factories.ts,
 * collected by test/modules/factories.ts; test/helpers/factories.ts builds the two tenants):
 * each role of tenant B that may call the route gets 404 (never 2xx, never 403: another tenant's ids
 * do not exist for B), another resident of A gets 404 for a resident's own object, and A's own caller
 * still reads it afterwards. Operator routes take any tenant's ids by design: a tenant admin is refused,
 * the operator is not. Login-free routes: another secret does not open the object.
 */
const keyOf = (route: RouteDef) => `${route.method.toUpperCase()} ${route.path}`;
const idRoutes = routeTable.filter((route) => route.path.includes("/:"));

/** Where a path's factory belongs: its module's factories.ts (for failure messages). */
const moduleOf = new Map(modules.flatMap((m) => m.routes.map((r): [string, string] => [r.path, m.name])));
const factoryHint = (path: string) => `${path} (module ${moduleOf.get(path)})`;

let world: World;

beforeAll(async () => {
  world = await createWorld();
}, 60_000);

interface Answer {
  status: number;
  code: string | undefined;
}

async function ask(
  route: RouteDef,
  params: Record<string, string>,
  token: string | undefined,
  body: unknown,
): Promise<Answer> {
  const path = route.path.replace(/:(\w+)/g, (_, name: string) => {
    const value = params[name];
    if (value === undefined) {
      throw new Error(`the factory for ${route.path} gives no :${name}`);
    }
    return encodeURIComponent(value);
  });
  const res = await call(path, { method: route.method.toUpperCase(), token, body });
  if (!res.headers.get("Content-Type")?.includes("json")) {
    await res.arrayBuffer();
    return { status: res.status, code: undefined };
  }
  return { status: res.status, code: ((await res.json()) as { code?: string }).code };
}

const show = (a: Answer) => `${a.status}${a.code ? ` ${a.code}` : ""}`;
const ok = (status: number) => status >= 200 && status < 300;

/** The tenant roles the walk calls a route as (cells the spec and the code disagree on left out). */
function tenantCallers(key: string, expected: Expectation): TenantRole[] {
  const disputed = new Set<string>(KNOWN_DISAGREEMENTS[key]?.roles ?? []);
  const roles: readonly TenantRole[] =
    expected.who === "user" ? TENANT_ROLES : Array.isArray(expected.who) ? expected.who : [];
  return roles.filter((role) => !disputed.has(role));
}

describe("another tenant's ids are 404 on every id-bearing route", () => {
  it("has a factory for every path with a parameter, and none for a path that is gone", () => {
    const paths = new Set(idRoutes.map((route) => route.path));
    const missing = [...paths].filter((path) => !(path in FACTORIES)).map(factoryHint);
    const stale = Object.keys(FACTORIES).filter((path) => !paths.has(path));
    expect({ missing, stale }, "add a factory in test/modules/<module>/factories.ts").toEqual({
      missing: [],
      stale: [],
    });
  });

  for (const route of idRoutes) {
    const key = keyOf(route);
    const factory = FACTORIES[route.path];
    if (factory?.kind === "exempt") {
      const probe = factory.probe;
      if (probe) {
        // No object to own (${factory.why}): the walk checks the route still wants a sign-in.
        it(`${key}: refused without sign-in (${probe.status})`, async () => {
          const path = route.path.replace(/:(\w+)/g, (_, name: string) => probe.params[name] ?? "");
          const res = await call(path, { method: route.method.toUpperCase() });
          expect(res.status, factory.why).toBe(probe.status);
        });
        continue;
      }
      // No object to own (${factory.why}): the parameter names an identity provider, so the walk's
      // question becomes "is a provider nobody configured refused?".
      it(`${key}: an unconfigured provider is 404`, async () => {
        const path = route.path.replace(":provider", "not-configured-idp");
        const res = await call(path, { method: route.method.toUpperCase() });
        expect(res.status, factory.why).toBe(404);
      });
      continue;
    }
    it(key, async () => {
      if (!factory) {
        throw new Error(`${key}: no factory for ${factoryHint(route.path)}; add one to its factories.ts`);
      }
      const expected = EXPECTED_ACCESS[key];
      if (!expected) {
        throw new Error(`${key} has no line in its module's access.ts`);
      }
      const problems: string[] = [];
      const expect404 = (who: string, answer: Answer) => {
        if (answer.status !== 404) {
          problems.push(`${who}: expected 404, got ${show(answer)}`);
        }
      };

      if (factory.kind === "public") {
        const object = await factory.make(world);
        const body = object.body?.[route.method];
        expect404("another secret", await ask(route, object.foreign, undefined, body));
        if (route.method === "get") {
          const own = await ask(route, object.params, undefined, undefined);
          if (!(object.ownGetStatus ? own.status === object.ownGetStatus : ok(own.status))) {
            problems.push(`its own secret: expected ${object.ownGetStatus ?? "2xx"}, got ${show(own)}`);
          }
        }
        expect(problems).toEqual([]);
        return;
      }

      const object = await factory.make(world);
      const body = object.body?.[route.method];
      if (factory.kind === "platform") {
        const admin = await ask(route, object.params, world.a.as.admin.token, body);
        if (admin.status !== 403) {
          problems.push(`the tenant's own admin: expected 403, got ${show(admin)}`);
        }
        const operator = await ask(route, object.params, world.operator, body);
        if (!ok(operator.status)) {
          problems.push(`the operator: expected 2xx, got ${show(operator)}`);
        }
        expect(problems).toEqual([]);
        return;
      }

      const callers = tenantCallers(key, expected);
      expect(callers.length, `${key}: no tenant role may call it, so it cannot be walked`).toBeGreaterThan(0);
      for (const role of callers) {
        expect404(`${role} of tenant B`, await ask(route, object.params, world.b.as[role].token, body));
      }
      if (object.residentOwned && callers.includes("warga")) {
        expect404("another resident of A", await ask(route, object.params, world.a.otherWarga.token, body));
      }
      if (route.method === "get") {
        const owner =
          object.ownerRole && callers.includes(object.ownerRole)
            ? object.ownerRole
            : (callers[0] as TenantRole);
        const own = await ask(route, object.params, world.a.as[owner].token, undefined);
        const fine = object.ownGetStatus ? own.status === object.ownGetStatus : ok(own.status);
        if (!fine) {
          problems.push(
            `${owner} of tenant A afterwards: expected ${object.ownGetStatus ?? "2xx"}, got ${show(own)}`,
          );
        }
      }
      expect(problems).toEqual([]);
    });
  }
});
