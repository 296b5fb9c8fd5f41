import { describe, expect, it } from "vitest";
import { tenantD1, withTrigger } from "../../helpers/d1";
import { callJson, createTenant, expectProblem } from "../../helpers/harness";

/** Issue 12, faults: a D1 batch failing half way leaves nothing written. */

describe("a family card whose batch fails at its last statement", () => {
  it("leaves neither the card nor its head as a member, and answers an error", async () => {
    const tenant = await createTenant();
    const sek = await tenant.member("sekretaris");
    const unit = await callJson<{ id: string }>("/api/kependudukan/units", {
      token: sek.token,
      body: { block: "A", number: "7" },
    });
    const db = tenantD1(tenant);
    const stamp = String(Date.now()).slice(-8);
    const kkNumber = `32730000${stamp}`;
    const headNik = `32731111${stamp}`;
    // The audit record closes the batch, after the card and its head.
    const res = await withTrigger(
      db,
      `fail_kk_${tenant.slug.replaceAll("-", "_")}`,
      `BEFORE INSERT ON audit_log
         WHEN NEW.action = 'kk.create' AND NEW.actor_id = '${sek.id}'
         BEGIN SELECT RAISE(ABORT, 'forced failure'); END`,
      () =>
        callJson("/api/kependudukan/kk", {
          token: sek.token,
          body: { kkNumber, unitId: unit.body.id, headName: "Siti Aminah", headNik, headSex: "P" },
        }),
    );
    expectProblem(res, 500, "internal_error");
    const cards = await db
      .prepare("SELECT COUNT(*) AS n FROM family_cards WHERE kk_number = ?")
      .bind(kkNumber)
      .first();
    const members = await db
      .prepare("SELECT COUNT(*) AS n FROM family_members WHERE nik = ?")
      .bind(headNik)
      .first();
    expect([cards?.n, members?.n]).toEqual([0, 0]);
    // Nothing half-written blocks the same card from being registered afterwards.
    const again = await callJson("/api/kependudukan/kk", {
      token: sek.token,
      body: { kkNumber, unitId: unit.body.id, headName: "Siti Aminah", headNik, headSex: "P" },
    });
    expect(again.status).toBe(201);
  });
});
