import { describe, expect, it } from "vitest";
import { withTrigger } from "../../helpers/d1";
import { bindings, callJson, createTenant, expectProblem, operatorToken } from "../../helpers/harness";

/** Issue 12, faults: a D1 batch failing half way leaves nothing written. */

describe("a tenant change whose batch fails at its last write", () => {
  it("keeps the tenant as it was, and answers an error", async () => {
    const tenant = await createTenant();
    const operator = await operatorToken();
    // The audit record is the batch's last write, after the tenant's row.
    const res = await withTrigger(
      bindings.PLATFORM_DB,
      `fail_tenant_${tenant.slug.replaceAll("-", "_")}`,
      `BEFORE INSERT ON audit_log
         WHEN NEW.action = 'tenant.update' AND NEW.target_id = '${tenant.id}'
         BEGIN SELECT RAISE(ABORT, 'forced failure'); END`,
      () =>
        callJson(`/api/platform/tenants/${tenant.id}`, {
          method: "PATCH",
          token: operator,
          body: { name: "RT Berganti Nama", status: "suspended" },
        }),
    );
    expectProblem(res, 500, "internal_error");
    const row = await bindings.PLATFORM_DB.prepare("SELECT name, status FROM tenants WHERE id = ?")
      .bind(tenant.id)
      .first();
    expect(row).toEqual({ name: "RT Uji", status: "active" });
  });
});
