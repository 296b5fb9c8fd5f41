import { describe, expect, it } from "vitest";
import { callJson, createTenant, expectProblem, setTenantFlags } from "../../helpers/harness";

/**
 * Issue 46: a community's admin reads its own feature flags (GET /api/tenant/features) for the console's
 * settings; only the platform's operators switch them.
 */
interface Features {
  slug: string;
  name: string;
  type: string;
  flags: Record<string, boolean>;
  subscription: string;
  changedBy: string;
}

const features = (token: string) => callJson<Features>("/api/tenant/features", { token });

describe("a community's own feature flags", () => {
  it("answers the admin its community's flags as the operator set them, read-only", async () => {
    const tenant = await createTenant();
    const admin = await tenant.member("admin");
    const before = await features(admin.token);
    expect(before.status).toBe(200);
    expect(before.body).toEqual({
      slug: tenant.slug,
      name: "RT Uji",
      type: "RT",
      flags: { pasar: true, tamu: true, musyawarah: true, surat: true, warga: true },
      subscription: expect.any(String),
      changedBy: "operator",
    });
    await setTenantFlags(tenant, { pasar: false, musyawarah: false });
    const after = await features(admin.token);
    expect(after.body.flags).toEqual({
      pasar: false,
      tamu: true,
      musyawarah: false,
      surat: true,
      warga: true,
    });
    // No write: the community cannot switch a module itself.
    const write = await callJson("/api/tenant/features", {
      method: "PATCH",
      token: admin.token,
      body: { flags: { pasar: true } },
    });
    expect([404, 405]).toContain(write.status);
    expect((await features(admin.token)).body.flags.pasar).toBe(false);
  });

  it("answers each admin their own community's flags only (the tenant comes from the token)", async () => {
    const a = await createTenant();
    const b = await createTenant({ type: "RW" });
    await setTenantFlags(a, { tamu: false });
    const adminA = await a.member("admin");
    const adminB = await b.member("admin");
    expect((await features(adminA.token)).body).toMatchObject({
      slug: a.slug,
      type: "RT",
      flags: { tamu: false },
    });
    expect((await features(adminB.token)).body).toMatchObject({
      slug: b.slug,
      type: "RW",
      flags: { tamu: true },
    });
    // A query naming the other community changes nothing.
    const named = await callJson<Features>(`/api/tenant/features?tenant=${a.slug}`, { token: adminB.token });
    expect(named.body.slug).toBe(b.slug);
  });

  it("refuses the other duties and residents (403) and an anonymous caller (401)", async () => {
    const tenant = await createTenant();
    for (const role of ["sekretaris", "bendahara", "warga"] as const) {
      const member = await tenant.member(role);
      expectProblem(await features(member.token), 403, "forbidden_role");
    }
    expect((await callJson("/api/tenant/features")).status).toBe(401);
  });
});
