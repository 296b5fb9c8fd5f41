import { describe, expect, it } from "vitest";
import { slotCount } from "../../../src/core/tenancy/slots";
import {
  bindings,
  callJson,
  createTenant,
  expectProblem,
  operatorToken,
  unique,
} from "../../helpers/harness";

/** Every creation invites its first admin (issue 27): a fresh address each time. */
const admin = () => ({ name: "Ketua RT", email: `${unique("ketua")}@warga.test` });

interface TenantBody {
  id: string;
  slug: string;
  type: string;
  slot: number;
  status: string;
  parentId: string | null;
  flags: Record<string, boolean>;
}

describe("operator tenant management", () => {
  it("creates a tenant that is usable at once, with its own migrated database", async () => {
    const slug = unique("rt-01");
    const res = await callJson<TenantBody>("/api/platform/tenants", {
      token: await operatorToken(),
      body: { slug, name: "RT 01 Sukamaju", type: "RT", admin: admin() },
    });
    expect(res.status).toBe(201);
    expect(res.body).toMatchObject({ slug, type: "RT", status: "active", parentId: null });
    expect(res.body.flags).toEqual({ pasar: true, tamu: true, musyawarah: true, surat: true, warga: true });
    const tables = await (bindings as unknown as Record<string, D1Database>)[
      `TENANT_DB_${String(res.body.slot).padStart(2, "0")}`
    ]
      ?.prepare("SELECT name FROM d1_migrations")
      .all();
    expect(tables?.results.length).toBeGreaterThan(0);
  });

  it("links an RT to its parent RW, and refuses a parent that is not an RW", async () => {
    const token = await operatorToken();
    const rw = await createTenant({ type: "RW" });
    const rt = await callJson<TenantBody>("/api/platform/tenants", {
      token,
      body: { slug: unique("rt"), name: "RT anak", type: "RT", parentSlug: rw.slug, admin: admin() },
    });
    expect(rt.status).toBe(201);
    expect(rt.body.parentId).toBe(rw.id);
    const bad = await callJson("/api/platform/tenants", {
      token,
      body: { slug: unique("rt"), name: "RT salah", type: "RT", parentSlug: rt.body.slug, admin: admin() },
    });
    expectProblem(bad, 400, "invalid_parent");
  });

  it("answers 409 slug_taken for a duplicate slug", async () => {
    const tenant = await createTenant();
    const res = await callJson("/api/platform/tenants", {
      token: await operatorToken(),
      body: { slug: tenant.slug, name: "Lagi", type: "RT", admin: admin() },
    });
    expectProblem(res, 409, "slug_taken");
  });

  it("validates the slug", async () => {
    const res = await callJson("/api/platform/tenants", {
      token: await operatorToken(),
      body: { slug: "RT 01!", name: "Salah", type: "RT", admin: admin() },
    });
    expectProblem(res, 400, "invalid_input");
  });

  it("lists tenants with pagination and filters", async () => {
    const token = await operatorToken();
    await createTenant({ type: "RW" });
    const page = await callJson<{ items: TenantBody[]; nextCursor: string | null }>(
      "/api/platform/tenants?limit=1",
      { token },
    );
    expect(page.status).toBe(200);
    expect(page.body.items).toHaveLength(1);
    expect(page.body.nextCursor).toBeTruthy();
    const next = await callJson<{ items: TenantBody[] }>(
      `/api/platform/tenants?limit=1&cursor=${page.body.nextCursor}`,
      { token },
    );
    expect(next.body.items[0]?.id).not.toBe(page.body.items[0]?.id);
    const rws = await callJson<{ items: TenantBody[] }>("/api/platform/tenants?type=RW&limit=100", { token });
    expect(rws.body.items.every((t) => t.type === "RW")).toBe(true);
  });

  it("renames, switches flags and suspends through PATCH", async () => {
    const tenant = await createTenant();
    const token = await operatorToken();
    const res = await callJson<TenantBody & { name: string }>(`/api/platform/tenants/${tenant.id}`, {
      method: "PATCH",
      token,
      body: { name: "RT Baru", flags: { pasar: false }, status: "suspended" },
    });
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({ name: "RT Baru", status: "suspended" });
    expect(res.body.flags).toMatchObject({ pasar: false, tamu: true });
    const missing = await callJson("/api/platform/tenants/01HZZZZZZZZZZZZZZZZZZZZZZZ", {
      method: "PATCH",
      token,
      body: { name: "Tidak ada" },
    });
    expectProblem(missing, 404, "not_found");
    const empty = await callJson(`/api/platform/tenants/${tenant.id}`, { method: "PATCH", token, body: {} });
    expectProblem(empty, 400, "invalid_input");
  });

  it("records creation and every change in the tenant's trail, with what changed", async () => {
    const token = await operatorToken();
    const tenant = await createTenant();
    const res = await callJson(`/api/platform/tenants/${tenant.id}`, {
      method: "PATCH",
      token,
      body: { flags: { surat: false } },
    });
    expect(res.status).toBe(200);
    const trail = await callJson<{ items: { action: string; targetId: string; detail: unknown }[] }>(
      `/api/platform/audit?tenant=${tenant.slug}`,
      { token },
    );
    expect(trail.body.items.filter((e) => e.targetId === tenant.id).map((e) => e.action)).toEqual([
      "tenant.update",
      "tenant.create",
    ]);
    expect(trail.body.items[0]?.detail).toEqual({ flags: { surat: false } });
    // The community's own admin reads the same records about their tenant.
    const admin = await tenant.member("admin");
    const own = await callJson<{ items: { action: string }[] }>("/api/audit?action=tenant.update", {
      token: admin.token,
    });
    expect(own.body.items.map((e) => e.action)).toEqual(["tenant.update"]);
  });

  it("is for platform operators only", async () => {
    const tenant = await createTenant();
    const admin = await tenant.member("admin");
    const res = await callJson("/api/platform/tenants", { token: admin.token });
    expectProblem(res, 403, "forbidden_role");
    const anonymous = await callJson("/api/platform/tenants");
    expectProblem(anonymous, 401, "unauthorized");
  });
});

describe("tenant database slots", () => {
  it("answers 503 no_free_slot once every slot is taken", async () => {
    const token = await operatorToken();
    const slots = slotCount(bindings);
    expect(slots).toBeGreaterThanOrEqual(8);
    const results = await Promise.all(
      Array.from({ length: slots + 2 }, (_, n) =>
        callJson<TenantBody>("/api/platform/tenants", {
          token,
          body: { slug: unique(`penuh-${n}`), name: "RT Penuh", type: "RT", admin: admin() },
        }),
      ),
    );
    const created = results.filter((r) => r.status === 201);
    const refused = results.filter((r) => r.status === 503);
    expect(created.length + refused.length).toBe(slots + 2);
    expect(new Set(created.map((r) => r.body.slot)).size).toBe(created.length);
    expect(refused.length).toBeGreaterThanOrEqual(2);
    for (const r of refused) {
      expectProblem(r, 503, "no_free_slot");
    }
    // Ten communities created at once, each migrating its database: seconds alone, more on a busy machine.
  }, 60_000);
});
