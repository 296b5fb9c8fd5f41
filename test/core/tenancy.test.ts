import { createExecutionContext } from "cloudflare:test";
import { sql } from "drizzle-orm";
import { describe, expect, it } from "vitest";
import type { TenantInfo } from "../../src/core/context";
import { rowById } from "../../src/core/db/rows";
import { CRON, runScheduled, tenantJob } from "../../src/core/jobs";
import { carryingOwnerCheck, OWNER_GUARD_SQL } from "../../src/core/tenancy/owner";
import { forgetTenant } from "../../src/core/tenancy/registry";
import { contextTenantDb } from "../../src/core/tenancy/sessions";
import { slotDatabase, tenantClient } from "../../src/core/tenancy/slots";
import { systemPlatformCtx, tenantCtxFor } from "../../src/core/tenancy/system";
import { emptyClosedSlot } from "../../src/core/tenancy/wipe";
import worker from "../../src/index";
import { units } from "../../src/modules/kependudukan/tables";
import { sentD1, tenantD1 } from "../helpers/d1";
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

describe("the slot's owner (a closed tenant's slot claimed again)", () => {
  const ownerOf = (slot: number) =>
    slotDatabase(bindings, slot).prepare("SELECT tenant_id FROM slot_owner").first<string>("tenant_id");

  it("refuses a request resolved from a stale cache entry once the slot belongs to another tenant", async () => {
    const a = await createTenant();
    const adminA = await a.member("admin");
    expect(await ownerOf(a.slot)).toBe(a.id);
    // This isolate now caches A → its slot (registry.ts, 30 s).
    expect((await callJson("/api/kependudukan/units", { token: adminA.token })).status).toBe(200);
    const staleA: TenantInfo = {
      ...(await tenantCtxFor(systemPlatformCtx(bindings, "test"), a.slug)).tenant,
    };

    // Elsewhere (another isolate: this one's cache is left alone) A is closed, its slot emptied (the
    // owner row with it) and released.
    await bindings.PLATFORM_DB.prepare("UPDATE tenants SET status = 'ditutup' WHERE id = ?").bind(a.id).run();
    await emptyClosedSlot(systemPlatformCtx(bindings, "test"), a.id);
    await bindings.PLATFORM_DB.prepare("UPDATE tenants SET slot = NULL WHERE id = ?").bind(a.id).run();
    await expect(ownerOf(a.slot)).rejects.toThrow(/no such table/);

    // B claims the same slot within the cache's lifetime and keeps a unit there.
    const b = await createTenant();
    expect(b.slot).toBe(a.slot);
    expect(await ownerOf(b.slot)).toBe(b.id);
    const adminB = await b.member("admin");
    const unitB = await callJson<Unit>("/api/kependudukan/units", {
      token: adminB.token,
      body: { block: "B", number: "9" },
    });
    expect(unitB.status).toBe(201);

    // A's cached resolution reads nothing of B's (the request's D1 session) and writes nothing there (a
    // context on the primary, as a job or another community's view gets).
    const read = await callJson<{ items: Unit[] }>("/api/kependudukan/units", { token: adminA.token });
    expectProblem(read, 410, "tenant_closed");
    await expect(contextTenantDb(bindings, staleA, null).run(sql`DELETE FROM units`)).rejects.toMatchObject({
      cause: { code: "tenant_closed" },
    });
    // Nor by id, where the read carries the check in its own statement: B's row, or no row at all, is
    // refused alike (a 404 would say the slot is someone's).
    for (const id of [unitB.body.id, "no-such-unit"]) {
      await expect(rowById(contextTenantDb(bindings, staleA, null), units, id)).rejects.toMatchObject({
        code: "tenant_closed",
      });
    }
    // Nor a batch that writes, led by a statement that carries the check: refused whole, nothing applied.
    const stale = tenantClient(contextTenantDb(bindings, staleA, null));
    const insert = carryingOwnerCheck(
      1,
      (limit) =>
        `INSERT INTO units (id, block, number, updated_at) SELECT ?1, 'Z', ?1, '2026-11-30T00:00:00Z' ${limit}`,
    );
    await expect(
      stale.batch([stale.prepare(insert).bind("stale-1"), stale.prepare(insert).bind("stale-2")]),
    ).rejects.toMatchObject({ code: "tenant_closed" });
    const listed = await callJson<{ items: Unit[] }>("/api/kependudukan/units", { token: adminB.token });
    expect(listed.body.items.map((u) => u.id)).toEqual([unitB.body.id]);
  });

  it("answers a stale entry whose slot was emptied under it as closed, not 500", async () => {
    const tenant = await createTenant();
    const admin = await tenant.member("admin");
    expect((await callJson("/api/kependudukan/units", { token: admin.token })).status).toBe(200);
    await bindings.PLATFORM_DB.prepare("UPDATE tenants SET status = 'ditutup' WHERE id = ?")
      .bind(tenant.id)
      .run();
    await emptyClosedSlot(systemPlatformCtx(bindings, "test"), tenant.id);
    expectProblem(await callJson("/api/kependudukan/units", { token: admin.token }), 410, "tenant_closed");
  });

  it("adopts a slot claimed before owners were recorded, for the tenant the platform says holds it", async () => {
    const tenant = await createTenant();
    const admin = await tenant.member("admin");
    await slotDatabase(bindings, tenant.slot).prepare("DELETE FROM slot_owner").run();
    forgetTenant(tenant.slug);
    expect((await callJson("/api/kependudukan/units", { token: admin.token })).status).toBe(200);
    expect(await ownerOf(tenant.slot)).toBe(tenant.id);
  });

  it("adopts a legacy slot from a read that carries the check itself, answering the read as asked", async () => {
    const tenant = await createTenant();
    const admin = await tenant.member("admin");
    const unit = await callJson<Unit>("/api/kependudukan/units", {
      token: admin.token,
      body: { block: "L", number: "1" },
    });
    for (const [id, status] of [
      [unit.body.id, 200],
      ["no-such-unit", 404],
    ] as const) {
      await slotDatabase(bindings, tenant.slot).prepare("DELETE FROM slot_owner").run();
      forgetTenant(tenant.slug);
      const read = await callJson<Unit>(`/api/kependudukan/units/${id}`, { token: admin.token });
      expect(read.status).toBe(status);
      expect(await ownerOf(tenant.slot)).toBe(tenant.id);
    }
  });

  it("sends a request's first read by id with the check inside it, not as a statement in front", async () => {
    const tenant = await createTenant();
    const admin = await tenant.member("admin");
    const unit = await callJson<Unit>("/api/kependudukan/units", {
      token: admin.token,
      body: { block: "C", number: "2" },
    });
    const slot = `TENANT_DB_${String(tenant.slot).padStart(2, "0")}`;
    for (const id of [unit.body.id, "no-such-unit"]) {
      const sent: string[][] = [];
      const env = { ...bindings, [slot]: sentD1(tenantD1(tenant), sent) } as typeof bindings;
      const res = await worker.fetch(
        new Request(`http://api.test/api/kependudukan/units/${id}`, {
          headers: { Authorization: `Bearer ${admin.token}` },
        }),
        env,
        createExecutionContext(),
      );
      expect(res.status).toBe(id === unit.body.id ? 200 : 404);
      // One statement in all: the unit's row, its LIMIT the slot owner's check.
      expect(sent).toHaveLength(1);
      expect(sent[0]).toHaveLength(1);
      expect(sent[0]?.[0]).toMatch(
        /^select .* from "units" where "units"\."id" = \? LIMIT \(SELECT CASE WHEN/,
      );
      expect(sent.flat()).not.toContain(OWNER_GUARD_SQL);
    }
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
