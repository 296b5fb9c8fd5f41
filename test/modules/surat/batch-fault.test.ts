import { describe, expect, it } from "vitest";
import { tenantD1, withTrigger } from "../../helpers/d1";
import { callJson, createTenant, expectProblem } from "../../helpers/harness";

/** Issue 12, faults: a D1 batch failing half way leaves nothing written. */

describe("letter settings whose batch fails at its last statement", () => {
  it("keep their previous values, and the change answers an error", async () => {
    const tenant = await createTenant();
    const admin = await tenant.member("admin");
    const settings = (body: Record<string, unknown>) =>
      callJson<{ kelurahan: string | null }>("/api/surat/settings", {
        method: "PUT",
        token: admin.token,
        body,
      });
    expect((await settings({ kelurahan: "Sukamaju" })).status).toBe(200);
    // The audit record closes the batch, after the settings row.
    const res = await withTrigger(
      tenantD1(tenant),
      `fail_settings_${tenant.slug.replaceAll("-", "_")}`,
      `BEFORE INSERT ON audit_log
         WHEN NEW.action = 'surat.settings.update' AND NEW.actor_id = '${admin.id}'
         BEGIN SELECT RAISE(ABORT, 'forced failure'); END`,
      () => settings({ kelurahan: "Sukamundur" }),
    );
    expectProblem(res, 500, "internal_error");
    const now = await callJson<{ kelurahan: string | null }>("/api/surat/settings", { token: admin.token });
    expect(now.body.kelurahan).toBe("Sukamaju");
  });
});
