import { describe, expect, it } from "vitest";
import { memberships } from "../../../src/core/db/identity-schema";
import { platformDb } from "../../../src/core/db/platform";
import { newId } from "../../../src/core/ids";
import { addDays } from "../../../src/core/time";
import { jakartaTime, setNow } from "../../helpers/clock";
import {
  bindings,
  callJson,
  createTenant,
  ENGLISH,
  expectProblem,
  login,
  type TestTenant,
} from "../../helpers/harness";

let unitSeq = 0;

/** A resident with a complete profile (a house and a WhatsApp number), as registering guests needs. */
function resident(tenant: TestTenant, duties: ("satpam" | "sekretaris")[] = []) {
  unitSeq += 1;
  return tenant.member("warga", {
    unitId: `unit-q${unitSeq}`,
    whatsapp: `62813${String(unitSeq).padStart(7, "0")}`,
    duties,
  });
}

/** Registers one guest, two hours ahead of `at` (the clock the test set). */
function registerOne(token: string, at: Date, headers?: Record<string, string>) {
  return callJson("/api/visitor", {
    token,
    headers,
    body: {
      guestName: "Tamu Arisan",
      purpose: "Arisan keluarga",
      visitAt: new Date(at.getTime() + 2 * 3_600_000).toISOString(),
      vehiclePlate: "B 1234 XYZ",
      identity: "KTP 3201010101800001",
    },
  });
}

/** Registers `n` guests one after another; returns the statuses. */
async function register(token: string, at: Date, n: number): Promise<number[]> {
  const statuses: number[] = [];
  for (let i = 0; i < n; i++) {
    statuses.push((await registerOne(token, at)).status);
  }
  return statuses;
}

describe("the guest-pass quota (issue 35)", () => {
  it("30 guest passes a day: the 31st is 429 naming the quota; a day later there is room again", async () => {
    const day = jakartaTime("2026-12-10", 8);
    setNow(day);
    const tenant = await createTenant();
    const warga = await resident(tenant);
    expect(await register(warga.token, day, 30)).toEqual(Array(30).fill(201));
    expectProblem(await registerOne(warga.token, day), 429, "rate_limited");
    // The English detail names the quota (the Indonesian one, the default, says the code's sentence).
    const refused = await registerOne(warga.token, day, ENGLISH);
    expectProblem(refused, 429, "rate_limited");
    expect((refused.body as { detail: string }).detail).toContain("30 guest passes per member per day");
    expect((refused.body as { detail: string }).detail).toContain("tamu-create:member");
    expect(Number(refused.headers.get("Retry-After"))).toBeGreaterThan(86_400 - 300);
    // An invalid request is still refused for what it is wrong, not for the quota.
    const past = await callJson("/api/visitor", {
      token: warga.token,
      body: {
        guestName: "Tamu",
        purpose: "Arisan",
        visitAt: addDays(day, -1).toISOString(),
        vehiclePlate: "B 1234 XYZ",
        identity: "KTP 3201010101800001",
      },
    });
    expectProblem(past, 400, "visit_in_past");
    const tomorrow = addDays(day, 1.01);
    setNow(tomorrow);
    expect((await registerOne(warga.token, tomorrow)).status).toBe(201);
  });

  it("a resident who guards the gate (satpam) registers guests for others without a quota", async () => {
    const day = jakartaTime("2026-12-11", 8);
    setNow(day);
    const tenant = await createTenant();
    const guard = await resident(tenant, ["satpam"]);
    expect(await register(guard.token, day, 35)).toEqual(Array(35).fill(201));
  });

  it("a quota spent in one community is not spent in another", async () => {
    const day = jakartaTime("2026-12-12", 8);
    setNow(day);
    const [a, b] = [await createTenant(), await createTenant()];
    const inA = await resident(a);
    expect(await register(inA.token, day, 30)).toEqual(Array(30).fill(201));
    expectProblem(await registerOne(inA.token, day), 429, "rate_limited");
    // The same person, a resident of B too, has B's quota whole.
    await platformDb(bindings)
      .insert(memberships)
      .values({ id: newId(), userId: inA.id, tenantId: b.id, roles: [], unitId: "unit-b1" });
    const inB = await login(inA.email, b.slug);
    expect(await register(inB, day, 30)).toEqual(Array(30).fill(201));
    expectProblem(await registerOne(inB, day), 429, "rate_limited");
  });
});
