import { describe, expect, it } from "vitest";
import { CRON, runScheduled, tenantJob } from "../../src/core/jobs";
import { systemPlatformCtx } from "../../src/core/tenancy/contexts";
import { forgetTenant } from "../../src/core/tenancy/registry";
import {
  bindings,
  callJson,
  createTenant,
  expectProblem,
  operatorToken,
  setTenantStatus,
} from "../helpers/harness";

interface Unit {
  id: string;
  block: string;
  number: string;
}

describe("tenant isolation", () => {
  it("keeps each tenant's data in its own database", async () => {
    const a = await createTenant();
    const b = await createTenant();
    const adminA = await a.member("admin");
    const adminB = await b.member("admin");
    const unitA = await callJson<Unit>("/api/kependudukan/units", {
      token: adminA.token,
      body: { block: "a", number: "1" },
    });
    expect(unitA.status).toBe(201);
    expect(unitA.body).toMatchObject({ block: "A", number: "1" });

    const listB = await callJson<{ items: Unit[] }>("/api/kependudukan/units", { token: adminB.token });
    expect(listB.body.items).toEqual([]);
  });

  it("answers 404, not 403, for another tenant's id", async () => {
    const a = await createTenant();
    const b = await createTenant();
    const sekA = await a.member("sekretaris");
    const sekB = await b.member("sekretaris");
    const unit = await callJson<Unit>("/api/kependudukan/units", {
      token: sekA.token,
      body: { block: "B", number: "7" },
    });
    const own = await callJson(`/api/kependudukan/units/${unit.body.id}`, { token: sekA.token });
    expect(own.status).toBe(200);
    const foreign = await callJson(`/api/kependudukan/units/${unit.body.id}`, { token: sekB.token });
    expectProblem(foreign, 404, "not_found");
  });

  it("does not let a resident reach staff data of the tenant, nor any other tenant's", async () => {
    const a = await createTenant();
    const b = await createTenant();
    const resident = await a.member("warga");
    const adminB = await b.member("admin");
    const unitB = await callJson<Unit>("/api/kependudukan/units", {
      token: adminB.token,
      body: { block: "C", number: "3" },
    });
    expectProblem(
      await callJson(`/api/kependudukan/units/${unitB.body.id}`, { token: resident.token }),
      403,
      "forbidden_role",
    );
    const me = await callJson<{ tenant: { slug: string }; memberships: unknown[] }>("/api/user/me", {
      token: resident.token,
    });
    expect(me.body.tenant.slug).toBe(a.slug);
    expect(me.body.memberships).toHaveLength(1);
  });

  it("keeps platform operators out of tenant routes", async () => {
    const token = await operatorToken();
    expectProblem(await callJson("/api/kependudukan/units", { token }), 403, "forbidden_role");
  });
});

describe("feature flags and suspension", () => {
  it("answers 403 feature_disabled when the route's module is off", async () => {
    const tenant = await createTenant();
    const admin = await tenant.member("admin");
    expect((await callJson("/api/kependudukan/units", { token: admin.token })).status).toBe(200);
    const patch = await callJson(`/api/platform/tenants/${tenant.id}`, {
      method: "PATCH",
      token: await operatorToken(),
      body: { flags: { warga: false } },
    });
    expect(patch.status).toBe(200);
    expectProblem(await callJson("/api/kependudukan/units", { token: admin.token }), 403, "feature_disabled");
  });

  it("answers 403 tenant_suspended for every tenant route of a suspended tenant", async () => {
    const tenant = await createTenant();
    const admin = await tenant.member("admin");
    await setTenantStatus(tenant.slug, "suspended");
    forgetTenant(tenant.slug);
    expectProblem(await callJson("/api/kependudukan/units", { token: admin.token }), 403, "tenant_suspended");
    expectProblem(
      await callJson("/api/statistik/operasional", { token: admin.token }),
      403,
      "tenant_suspended",
    );
  });
});

describe("scheduled jobs", () => {
  it("runs a tenant job in every active tenant, skips suspended ones, survives one tenant failing, and sums the counts", async () => {
    const ok = await createTenant();
    const failing = await createTenant();
    const suspended = await createTenant();
    await setTenantStatus(suspended.slug, "suspended");
    forgetTenant(suspended.slug);
    const seen: string[] = [];
    const at = new Date("2026-12-01T00:05:00+07:00");
    const job = tenantJob("test.visit", CRON.JAKARTA_DAILY, async (ctx, scheduledAt) => {
      expect(scheduledAt).toEqual(at);
      expect(ctx.actor.kind).toBe("system");
      seen.push(ctx.tenant.slug);
      if (ctx.tenant.slug === failing.slug) {
        throw new Error("boom");
      }
      return { ok: true, visited: 1 };
    });
    const other = { ...job, name: "test.hourly", cron: CRON.HOURLY };
    const ctx = systemPlatformCtx(bindings, "test");
    const reports = await runScheduled(ctx, [job, other], CRON.JAKARTA_DAILY, at);

    expect(seen).toContain(ok.slug);
    expect(seen).toContain(failing.slug);
    expect(seen).not.toContain(suspended.slug);
    expect(reports["test.hourly"]).toBeUndefined();
    expect(reports["test.visit"]).toMatchObject({ failed: 1 });
    // Numbers are summed over the tenants that finished; other values are not reported.
    const report = reports["test.visit"] as Record<string, unknown>;
    expect(report.visited).toBe((report.tenants as number) - 1);
    expect(report.ok).toBeUndefined();
  });

  it("keeps running the next job when one throws", async () => {
    const ctx = systemPlatformCtx(bindings, "test");
    const ran: string[] = [];
    const reports = await runScheduled(
      ctx,
      [
        {
          name: "a",
          cron: CRON.HOURLY,
          run: async () => {
            throw new Error("down");
          },
        },
        {
          name: "b",
          cron: CRON.HOURLY,
          run: async () => {
            ran.push("b");
            return { n: 1 };
          },
        },
      ],
      CRON.HOURLY,
      new Date(),
    );
    expect(reports.a).toEqual({ error: "down" });
    expect(reports.b).toEqual({ n: 1 });
    expect(ran).toEqual(["b"]);
  });
});
