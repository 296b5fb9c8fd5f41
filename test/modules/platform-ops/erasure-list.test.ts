import { describe, expect, it } from "vitest";
import { callJson, createTenant, expectProblem, operatorToken } from "../../helpers/harness";

interface ErasureList {
  items: { id: string; userId: string; reference: string; erasedAt: string; operatorId: string | null }[];
  nextCursor: string | null;
}

/** Issue 47 item 4: the operator's list of the personal-data erasures done in a community. */
describe("GET /api/platform/tenants/:id/erasures", () => {
  it("lists each erased person of this community once, newest first, and pages", async () => {
    const token = await operatorToken();
    const tenant = await createTenant();
    const other = await createTenant();
    const first = await tenant.member("warga");
    const second = await tenant.member("warga");
    const erase = (tenantId: string, userId: string) =>
      callJson<{ reference: string }>(`/api/platform/tenants/${tenantId}/erasures`, {
        token,
        body: { userId },
      });
    const a = await erase(tenant.id, first.id);
    await erase(tenant.id, first.id);
    const b = await erase(tenant.id, second.id);
    await erase(other.id, second.id);

    const { status, body } = await callJson<ErasureList>(`/api/platform/tenants/${tenant.id}/erasures`, {
      token,
    });
    expect(status).toBe(200);
    expect(body.items.map((i) => [i.userId, i.reference])).toEqual([
      [second.id, b.body.reference],
      [first.id, a.body.reference],
    ]);
    expect(body.items[0]?.operatorId).toBeTruthy();

    const page = await callJson<ErasureList>(`/api/platform/tenants/${tenant.id}/erasures?limit=1`, {
      token,
    });
    expect(page.body.items.map((i) => i.userId)).toEqual([second.id]);
    const next = await callJson<ErasureList>(
      `/api/platform/tenants/${tenant.id}/erasures?limit=1&cursor=${encodeURIComponent(page.body.nextCursor ?? "")}`,
      { token },
    );
    expect(next.body.items.map((i) => i.userId)).toEqual([first.id]);
    expect(next.body.nextCursor).toBeNull();
  });

  it("refuses a bad cursor, an unknown community and a tenant admin", async () => {
    const token = await operatorToken();
    const tenant = await createTenant();
    expectProblem(
      await callJson(`/api/platform/tenants/${tenant.id}/erasures?cursor=nope`, { token }),
      400,
      "invalid_cursor",
    );
    expectProblem(
      await callJson("/api/platform/tenants/01UNKNOWNTENANT0000000000/erasures", { token }),
      404,
      "tenant_not_found",
    );
    const admin = await tenant.member("admin");
    expectProblem(
      await callJson(`/api/platform/tenants/${tenant.id}/erasures`, { token: admin.token }),
      403,
      "forbidden_role",
    );
  });
});
