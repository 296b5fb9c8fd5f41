import { describe, expect, it } from "vitest";
import { withTrigger } from "../../helpers/d1";
import { bindings, callJson, createTenant, expectProblem } from "../../helpers/harness";

/** Issue 12, faults: a D1 batch failing half way leaves nothing written. */

describe("a gate device whose batch fails at its last write", () => {
  it("is not created, and the request answers an error", async () => {
    const tenant = await createTenant();
    const admin = await tenant.member("admin");
    // The audit record is the batch's last write, after the device row.
    const res = await withTrigger(
      bindings.PLATFORM_DB,
      `fail_device_${tenant.slug.replaceAll("-", "_")}`,
      `BEFORE INSERT ON audit_log
         WHEN NEW.action = 'gate_device.create' AND NEW.tenant_id = '${tenant.id}'
         BEGIN SELECT RAISE(ABORT, 'forced failure'); END`,
      () =>
        callJson("/api/gate-devices", {
          token: admin.token,
          body: { name: "Portal utama", adapter: "generic" },
        }),
    );
    expectProblem(res, 500, "internal_error");
    const left = await bindings.PLATFORM_DB.prepare(
      "SELECT COUNT(*) AS n FROM gate_devices WHERE tenant_id = ?",
    )
      .bind(tenant.id)
      .first();
    expect(left?.n).toBe(0);
  });
});
