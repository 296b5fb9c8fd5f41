import { and, eq } from "drizzle-orm";
import { describe, expect, it } from "vitest";
import { platformDb } from "../../../src/core/db/platform";
import { auditLog } from "../../../src/core/db/platform-schema";
import { tenantAuditLog } from "../../../src/core/db/tenant-schema";
import { newId } from "../../../src/core/ids";
import { tenantDb } from "../../../src/core/tenancy/slots";
import { bindings, callJson, createTenant, expectProblem, operatorToken } from "../../helpers/harness";

interface Entry {
  id: string;
  tenantId: string | null;
  actorId: string | null;
  actorName: string | null;
  actorRole: string | null;
  action: string;
  ip: string | null;
  requestId: string | null;
  createdAt: string;
}

async function unitCreatedBy(token: string, block: string, ip: string, requestId: string) {
  const res = await callJson("/api/kependudukan/units", {
    token,
    body: { block, number: "1" },
    headers: { "CF-Connecting-IP": ip, "X-Request-Id": requestId },
  });
  expect(res.status).toBe(201);
}

describe("GET /api/audit", () => {
  it("shows the admin their own community's staff writes with actor, role, IP and request id", async () => {
    const tenant = await createTenant();
    const other = await createTenant();
    const admin = await tenant.member("admin");
    const sek = await tenant.member("sekretaris");
    await unitCreatedBy(sek.token, "AU", "192.0.2.10", "req-audit-1");
    await unitCreatedBy((await other.member("admin")).token, "ZZ", "192.0.2.11", "req-audit-2");

    const res = await callJson<{ items: Entry[]; nextCursor: string | null }>("/api/audit", {
      token: admin.token,
    });
    expect(res.status).toBe(200);
    const entry = res.body.items.find((e) => e.action === "unit.create");
    expect(entry).toMatchObject({
      tenantId: tenant.id,
      actorId: sek.id,
      actorName: "Pengguna Uji",
      actorRole: "sekretaris",
      ip: "192.0.2.10",
      requestId: "req-audit-1",
    });
    expect(entry?.createdAt).toMatch(/\+07:00$/);
    expect(res.body.items.every((e) => e.tenantId === tenant.id)).toBe(true);
  });

  it("filters by actor and by Jakarta calendar day, and pages with a cursor", async () => {
    const tenant = await createTenant();
    const admin = await tenant.member("admin");
    const sek = await tenant.member("sekretaris");
    await unitCreatedBy(sek.token, "F1", "192.0.2.1", "r1");
    await unitCreatedBy(sek.token, "F2", "192.0.2.1", "r2");
    await unitCreatedBy(admin.token, "F3", "192.0.2.1", "r3");
    // A row at 23:30 WIB on 2026-03-05 (16:30Z) and one at 00:30 WIB on 2026-03-06 (17:30Z), in the
    // tenant's own audit table where its writes are recorded.
    const db = tenantDb(bindings, tenant.slot);
    for (const createdAt of ["2026-03-05T16:30:00.000Z", "2026-03-05T17:30:00.000Z"]) {
      await db.insert(tenantAuditLog).values({
        id: newId(),
        actorId: sek.id,
        actorRole: "sekretaris",
        action: "test.old",
        targetType: "test",
        createdAt,
      });
    }
    const bySek = await callJson<{ items: Entry[] }>(`/api/audit?actor=${sek.id}&action=unit.create`, {
      token: admin.token,
    });
    expect(bySek.body.items).toHaveLength(2);
    const day = await callJson<{ items: Entry[] }>("/api/audit?from=2026-03-05&to=2026-03-05", {
      token: admin.token,
    });
    expect(day.body.items.map((e) => e.createdAt)).toEqual(["2026-03-05T23:30:00+07:00"]);

    const first = await callJson<{ items: Entry[]; nextCursor: string }>("/api/audit?limit=2", {
      token: admin.token,
    });
    expect(first.body.items).toHaveLength(2);
    const second = await callJson<{ items: Entry[] }>(`/api/audit?limit=2&cursor=${first.body.nextCursor}`, {
      token: admin.token,
    });
    expect(second.body.items[0]?.id < (first.body.items[1]?.id ?? "")).toBe(true);
    expectProblem(await callJson("/api/audit?from=2026-02-30", { token: admin.token }), 400, "invalid_date");
    expectProblem(await callJson("/api/audit?from=5-3-2026", { token: admin.token }), 400, "invalid_input");
  });

  it("is for admins only", async () => {
    const tenant = await createTenant();
    for (const role of ["warga", "bendahara", "sekretaris"] as const) {
      const m = await tenant.member(role);
      expectProblem(await callJson("/api/audit", { token: m.token }), 403, "forbidden_role");
    }
    expectProblem(await callJson("/api/audit", { token: await operatorToken() }), 403, "forbidden_role");
  });
});

describe("where a tenant write's record lives", () => {
  it("is in the tenant's own database, and both the admin's and the operator's trail show it", async () => {
    const tenant = await createTenant();
    const admin = await tenant.member("admin");
    const sek = await tenant.member("sekretaris");
    await unitCreatedBy(sek.token, "LOK", "192.0.2.40", "req-local-1");

    const local = await tenantDb(bindings, tenant.slot)
      .select()
      .from(tenantAuditLog)
      .where(and(eq(tenantAuditLog.action, "unit.create"), eq(tenantAuditLog.actorId, sek.id)))
      .all();
    expect(local).toHaveLength(1);
    const record = local[0];
    expect(record).toMatchObject({ actorRole: "sekretaris", ip: "192.0.2.40", requestId: "req-local-1" });
    // Written beside the change, not in the control plane.
    const central = await platformDb(bindings)
      .select()
      .from(auditLog)
      .where(and(eq(auditLog.action, "unit.create"), eq(auditLog.actorId, sek.id)))
      .all();
    expect(central).toEqual([]);

    const expected = { id: record?.id, tenantId: tenant.id, actorId: sek.id, actorName: "Pengguna Uji" };
    const query = `action=unit.create&actor=${sek.id}`;
    const own = await callJson<{ items: Entry[] }>(`/api/audit?${query}`, { token: admin.token });
    expect(own.body.items).toEqual([expect.objectContaining(expected)]);
    const op = await operatorToken();
    for (const tenantFilter of [`&tenant=${tenant.slug}`, `&tenant=${tenant.id}`, ""]) {
      const res = await callJson<{ items: Entry[] }>(`/api/platform/audit?${query}${tenantFilter}`, {
        token: op,
      });
      expect(res.status).toBe(200);
      expect(res.body.items).toEqual([expect.objectContaining(expected)]);
    }
    const platformOnly = await callJson<{ items: Entry[] }>(`/api/platform/audit?${query}&tenant=platform`, {
      token: op,
    });
    expect(platformOnly.body.items).toEqual([]);
  });
});

describe("GET /api/platform/audit", () => {
  it("shows operators every tenant's and the platform's own entries, filterable by tenant", async () => {
    const tenant = await createTenant();
    const admin = await tenant.member("admin");
    await unitCreatedBy(admin.token, "P1", "192.0.2.2", "rp1");
    const op = await operatorToken();
    const all = await callJson<{ items: Entry[] }>("/api/platform/audit?limit=100", { token: op });
    expect(all.body.items.some((e) => e.action === "tenant.create" && e.actorRole === "super_admin")).toBe(
      true,
    );
    const one = await callJson<{ items: Entry[] }>(`/api/platform/audit?tenant=${tenant.slug}`, {
      token: op,
    });
    expect(one.body.items.length).toBeGreaterThan(0);
    expect(one.body.items.every((e) => e.tenantId === tenant.id)).toBe(true);
    expectProblem(await callJson("/api/platform/audit", { token: admin.token }), 403, "forbidden_role");
  });
});
