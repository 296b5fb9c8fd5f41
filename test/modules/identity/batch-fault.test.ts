import { describe, expect, it } from "vitest";
import { withTrigger } from "../../helpers/d1";
import { bindings, callJson, createTenant, expectProblem } from "../../helpers/harness";

/** Issue 12, faults: a D1 batch failing half way leaves nothing written. */

describe("a profile change whose batch fails at its last statement", () => {
  it("changes neither the account nor the membership's unit, and answers an error", async () => {
    const tenant = await createTenant();
    const warga = await tenant.member("warga");
    // The audit record closes the batch, after the account and the membership.
    const res = await withTrigger(
      bindings.PLATFORM_DB,
      `fail_profile_${tenant.slug.replaceAll("-", "_")}`,
      `BEFORE INSERT ON audit_log
         WHEN NEW.action = 'profile.update' AND NEW.target_id = '${warga.id}'
         BEGIN SELECT RAISE(ABORT, 'forced failure'); END`,
      () =>
        callJson("/api/user/profile", {
          method: "PUT",
          token: warga.token,
          body: { fullName: "Siti Aminah", whatsapp: "0812-7777-3131", block: "B", houseNumber: "12" },
        }),
    );
    expectProblem(res, 500, "internal_error");
    const me = await callJson<{ name: string; whatsapp: string | null; unitId: string | null }>(
      "/api/user/me",
      {
        token: warga.token,
      },
    );
    expect(me.body).toMatchObject({ name: "Pengguna Uji", whatsapp: null, unitId: null });
  });
});
