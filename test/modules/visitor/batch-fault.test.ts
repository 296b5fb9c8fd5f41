import { describe, expect, it } from "vitest";
import { tenantD1, withTrigger } from "../../helpers/d1";
import { callJson, createTenant, expectProblem } from "../../helpers/harness";

/** Issue 12, faults: a D1 batch failing half way leaves nothing written. */

interface VisitorBody {
  id: string;
  status: string;
  decidedAt: string | null;
  passValidFrom: string | null;
}

describe("a visitor decision whose batch fails at its last statement", () => {
  it("leaves the visit waiting, with no pass, and answers an error", async () => {
    const tenant = await createTenant();
    const warga = await tenant.member("warga", { unitId: "unit-fault", whatsapp: "6281200077001" });
    const sek = await tenant.member("sekretaris");
    const visitAt = new Date(Date.now() + 2 * 3_600_000).toISOString();
    const created = await callJson<VisitorBody>("/api/visitor", {
      token: warga.token,
      body: { guestName: "Andi Wijaya", purpose: "Silaturahmi", visitAt },
    });
    expect(created.status).toBe(201);
    const id = created.body.id;
    // The audit record closes the batch, after the decision and its guard.
    const res = await withTrigger(
      tenantD1(tenant),
      `fail_decision_${tenant.slug.replaceAll("-", "_")}`,
      `BEFORE INSERT ON audit_log
         WHEN NEW.action = 'visitor.approve' AND NEW.target_id = '${id}'
         BEGIN SELECT RAISE(ABORT, 'forced failure'); END`,
      () =>
        callJson(`/api/visitor/${id}`, { method: "PUT", token: sek.token, body: { status: "disetujui" } }),
    );
    expectProblem(res, 500, "internal_error");
    const now = await callJson<VisitorBody>(`/api/visitor/${id}`, { token: warga.token });
    expect(now.body).toMatchObject({ status: "menunggu", decidedAt: null, passValidFrom: null });
  });
});
