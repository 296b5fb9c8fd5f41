import { beforeAll, describe, expect, it } from "vitest";
import { modules, routeTable } from "../../src/app";
import { DUTIES, type Duty, type TenantRole } from "../../src/core/context";
import { FEATURE_FLAGS, type FeatureFlag } from "../../src/core/flags";
import type { RouteDef } from "../../src/core/http/access";
import type { Expectation, Who } from "../helpers/access";
import {
  bindings,
  type CallInit,
  call,
  callJson,
  createTenant,
  operatorToken,
  setTenantFlags,
  type TestTenant,
} from "../helpers/harness";
import { EXPECTED_ACCESS, KNOWN_DISAGREEMENTS } from "../modules/access";

/**
 * Walks every route of the route table against the hand-written tables of the modules' access.ts
 * files (collected by test/modules/access.ts; the reading rules are in test/helpers/access.ts), as
 * each party a request can come from: a resident with no duty, each duty alone (an officer or guard
 * with no house in the community), each duty plus residency, an operator, a device, a service and no
 * token. Routes get fake ids and empty bodies, so getting past the guard shows up as 400/404/409/200
 * and never as one of the guard's own 401/403 codes.
 */
type Member = "warga" | Duty | `${Duty}+warga`;
type Party = "anonymous" | Member | "super_admin" | "device" | "service";
const MEMBERS: readonly Member[] = ["warga", ...DUTIES, ...DUTIES.map((d) => `${d}+warga` as const)];
const PARTIES: readonly Party[] = ["anonymous", ...MEMBERS, "super_admin", "device", "service"];

/** The roles an access line is matched against, for a member party (core/context.ts effectiveRoles). */
function rolesOf(party: Party): readonly TenantRole[] {
  if (!(MEMBERS as readonly string[]).includes(party)) {
    return [];
  }
  return party.split("+") as TenantRole[];
}

const isMember = (party: Party) => rolesOf(party).length > 0;
const FAKE_ID = "01HZZZZZZZZZZZZZZZZZZZZZZZ";

/** The codes only a guard (or the device-key check standing in for it) answers with. */
const GUARD_CODES = new Set([
  "unauthorized",
  "invalid_token",
  "token_expired",
  "forbidden_role",
  "invalid_service_key",
  "missing_device_key",
  "invalid_device_key",
  "device_inactive",
  "tenant_not_found",
  "tenant_suspended",
  "feature_disabled",
]);

const keyOf = (route: Pick<RouteDef, "method" | "path">) => `${route.method.toUpperCase()} ${route.path}`;

/** Where a route's line belongs: its module's access.ts (for failure messages). */
const moduleOf = new Map(modules.flatMap((m) => m.routes.map((r): [string, string] => [keyOf(r), m.name])));
const lineHint = (key: string) => `${key} (module ${moduleOf.get(key)})`;

function allowed(who: Who, party: Party): boolean {
  switch (who) {
    case "public":
      return true;
    case "service":
      return party === "service";
    case "device":
      return party === "device";
    case "platform":
      return party === "super_admin";
    case "user":
      return party === "super_admin" || isMember(party);
    default:
      return rolesOf(party).some((role) => (who as readonly string[]).includes(role));
  }
}

/** Without an access token the guard cannot know who you are (401); with one, it refuses (403). */
function refusal(who: Who, party: Party): number {
  const hasAccessToken = party === "super_admin" || isMember(party);
  return !hasAccessToken || who === "service" || who === "device" ? 401 : 403;
}

interface Answer {
  status: number;
  code: string | undefined;
}

const describeAnswer = (a: Answer) => `${a.status}${a.code ? ` ${a.code}` : ""}`;

let tenant: TestTenant;
const credentials = new Map<Party, CallInit>();

async function ask(route: RouteDef, expected: Expectation | undefined, party: Party): Promise<Answer> {
  const init: CallInit = { ...credentials.get(party), method: route.method.toUpperCase() };
  if (expected?.who === "device") {
    // Today the webhook reads its body before the key: a body it accepts makes the key the only question.
    init.body = { event: "heartbeat" };
  } else if (route.method !== "get" && route.method !== "delete") {
    init.body = {};
  }
  const res = await call(route.path.replace(/:(\w+)/g, FAKE_ID), init);
  if (!res.headers.get("Content-Type")?.includes("json")) {
    await res.arrayBuffer();
    return { status: res.status, code: undefined };
  }
  return { status: res.status, code: ((await res.json()) as { code?: string }).code };
}

const blocked = (a: Answer) => (a.status === 401 || a.status === 403) && GUARD_CODES.has(a.code ?? "");

/** What is wrong with one cell of the matrix, or null. */
function cellProblem(expected: Expectation, party: Party, answer: Answer): string | null {
  if (allowed(expected.who, party)) {
    return blocked(answer) ? `${party} is refused (${describeAnswer(answer)})` : null;
  }
  const status = refusal(expected.who, party);
  return blocked(answer) && answer.status === status
    ? null
    : `${party} should get the guard's ${status}, got ${describeAnswer(answer)}`;
}

/** The parties allowed to call a route, as the walk may use them (disagreement cells left out). */
function allowedParties(key: string, expected: Expectation): Party[] {
  const disputed = new Set<Party>(KNOWN_DISAGREEMENTS[key]?.roles ?? []);
  return PARTIES.filter((p) => allowed(expected.who, p) && !disputed.has(p));
}

beforeAll(async () => {
  tenant = await createTenant();
  for (const party of MEMBERS) {
    const [duty, resident] = party.split("+") as [TenantRole, string | undefined];
    // A house is what makes a member a resident; the guard only reads the token, so any unit id will do.
    const member = await tenant.member(duty, resident ? { unitId: "unit-matriks" } : {});
    credentials.set(party, { token: member.token });
  }
  credentials.set("super_admin", { token: await operatorToken() });
  credentials.set("anonymous", {});
  credentials.set("service", { headers: { "X-Service-Internal-Key": bindings.INTERNAL_API_KEY } });
  const device = await callJson<{ apiKey: string }>("/api/gate-devices", {
    token: credentials.get("admin")?.token,
    body: { name: "Gerbang matriks", adapter: "generic" },
  });
  if (device.status !== 201) {
    throw new Error(`device creation failed: ${device.status} ${JSON.stringify(device.body)}`);
  }
  credentials.set("device", { token: device.body.apiKey });
}, 60_000);

describe("the expected access table", () => {
  it("has exactly one line per route of the route table", () => {
    const routes = routeTable.map(keyOf);
    const missing = routes.filter((key) => !(key in EXPECTED_ACCESS)).map(lineHint);
    const stale = Object.keys(EXPECTED_ACCESS).filter((key) => !routes.includes(key));
    expect({ missing, stale }, "write each route's line in test/modules/<module>/access.ts").toEqual({
      missing: [],
      stale: [],
    });
    expect(new Set(routes).size).toBe(routes.length);
  });

  it("lists only real routes and real roles among its disagreements", () => {
    for (const [key, disagreement] of Object.entries(KNOWN_DISAGREEMENTS)) {
      expect(routeTable.map(keyOf), key).toContain(key);
      expect(disagreement.roles.length, key).toBeGreaterThan(0);
    }
  });
});

describe("every route's guard lets in exactly the expected parties", () => {
  for (const route of routeTable) {
    const key = keyOf(route);
    it(key, async () => {
      const expected = EXPECTED_ACCESS[key];
      if (!expected) {
        throw new Error(`${lineHint(key)} has no line`);
      }
      const disputed = new Set<Party>(KNOWN_DISAGREEMENTS[key]?.roles ?? []);
      const problems: string[] = [];
      for (const party of PARTIES) {
        if (disputed.has(party)) {
          continue;
        }
        const problem = cellProblem(expected, party, await ask(route, expected, party));
        if (problem) {
          problems.push(problem);
        }
      }
      expect(problems).toEqual([]);
    });
  }
});

describe("a module switched off answers 403 feature_disabled on its routes, and only on its routes", () => {
  for (const flag of FEATURE_FLAGS) {
    it(`with ${flag} off`, async () => {
      await setTenantFlags(tenant, { ...allOn(), [flag]: false });
      const problems: string[] = [];
      try {
        for (const route of routeTable) {
          const key = keyOf(route);
          const expected = EXPECTED_ACCESS[key];
          // Only routes that act inside a tenant can be switched off.
          if (!expected || !(Array.isArray(expected.who) || expected.who === "device")) {
            continue;
          }
          const party = allowedParties(key, expected)[0];
          if (!party) {
            continue;
          }
          const answer = await ask(route, expected, party);
          const disabled = answer.status === 403 && answer.code === "feature_disabled";
          if (expected.flag === flag && !disabled) {
            problems.push(`${key} as ${party}: expected 403 feature_disabled, got ${describeAnswer(answer)}`);
          } else if (expected.flag !== flag && blocked(answer)) {
            problems.push(`${key} as ${party}: refused with ${flag} off (${describeAnswer(answer)})`);
          }
        }
      } finally {
        await setTenantFlags(tenant, allOn());
      }
      expect(problems).toEqual([]);
    });
  }
});

function allOn(): Record<FeatureFlag, boolean> {
  return Object.fromEntries(FEATURE_FLAGS.map((f) => [f, true])) as Record<FeatureFlag, boolean>;
}

/**
 * Each disagreement between the spec and the code, checked against the spec: these fail today, by
 * intent. When one starts passing, the code follows the spec: delete its entry in its module's
 * DISAGREEMENTS (test/modules/<module>/access.ts).
 */
// Empty since issue 11 settled every disagreement; a new one goes in its module's access.ts.
if (Object.keys(KNOWN_DISAGREEMENTS).length > 0) {
  describe("known disagreements between the spec and the code (the lead decides)", () => {
    for (const [key, disagreement] of Object.entries(KNOWN_DISAGREEMENTS)) {
      it.fails(`${key}: ${disagreement.why}`, async () => {
        const route = routeTable.find((r) => keyOf(r) === key);
        const expected = EXPECTED_ACCESS[key];
        if (!route || !expected) {
          // Passing here makes it.fails report it: an entry for a route that does not exist is stale.
          return;
        }
        const problems: string[] = [];
        for (const party of disagreement.roles) {
          const problem = cellProblem(expected, party, await ask(route, expected, party));
          if (problem) {
            problems.push(problem);
          }
        }
        expect(problems).toEqual([]);
      });
    }
  });
}

describe("device routes", () => {
  for (const route of routeTable) {
    const key = keyOf(route);
    if (EXPECTED_ACCESS[key]?.who !== "device") {
      continue;
    }
    // The walk above holds the webhook to the device rules (no key or an access token: 401); this holds
    // the route table to saying so, so the guard, not the gate service, checks the key.
    it(`${key} declares the device scope with the tamu flag`, () => {
      expect(route.access).toEqual({ scope: "device", flag: "tamu" });
    });
  }
});
