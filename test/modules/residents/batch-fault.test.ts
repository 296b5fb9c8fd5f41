import { describe, expect, it } from "vitest";
import { withTrigger } from "../../helpers/d1";
import { bindings, callJson, createTenant, expectProblem } from "../../helpers/harness";

/** Issue 12, faults: a D1 batch failing half way leaves nothing written. */

interface ApplicationBody {
  id: string;
  status: string;
  whatsapp: string;
}

describe("an approval whose batch fails at its last statement", () => {
  it("creates no account or membership and leaves the application waiting", async () => {
    const tenant = await createTenant();
    const sek = await tenant.member("sekretaris");
    const whatsapp = `0813${String(Date.now()).slice(-8)}`;
    const email = `gagal-${tenant.slug}@mail.test`;
    const applied = await callJson(`/api/public/tenants/${tenant.slug}/applications`, {
      body: { fullName: "Warga Baru", whatsapp, email, block: "A", houseNumber: "3" },
    });
    expect(applied.status).toBe(202);
    const list = await callJson<{ items: ApplicationBody[] }>("/api/applications?status=menunggu", {
      token: sek.token,
    });
    const app = list.body.items[0];
    expect(app).toBeDefined();
    const id = app?.id ?? "";
    // The audit record closes the batch, after the decision, the account and the membership.
    const res = await withTrigger(
      bindings.PLATFORM_DB,
      `fail_approval_${tenant.slug.replaceAll("-", "_")}`,
      `BEFORE INSERT ON audit_log
         WHEN NEW.action = 'application.approve' AND NEW.target_id = '${id}'
         BEGIN SELECT RAISE(ABORT, 'forced failure'); END`,
      () =>
        callJson(`/api/applications/${id}`, {
          method: "PUT",
          token: sek.token,
          body: { status: "disetujui" },
        }),
    );
    expectProblem(res, 500, "internal_error");
    const db = bindings.PLATFORM_DB;
    const row = await db
      .prepare("SELECT status, user_id FROM resident_applications WHERE id = ?")
      .bind(id)
      .first();
    expect(row).toEqual({ status: "menunggu", user_id: null });
    const accounts = await db.prepare("SELECT COUNT(*) AS n FROM users WHERE email = ?").bind(email).first();
    expect(accounts?.n).toBe(0);
    const members = await db
      .prepare("SELECT COUNT(*) AS n FROM memberships WHERE tenant_id = ? AND role = 'warga'")
      .bind(tenant.id)
      .first();
    expect(members?.n).toBe(0);
    // Nothing half-written: the same application can still be approved.
    const again = await callJson(`/api/applications/${id}`, {
      method: "PUT",
      token: sek.token,
      body: { status: "disetujui" },
    });
    expect(again.status).toBe(200);
  });
});
