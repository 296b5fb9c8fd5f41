import { describe, expect, it } from "vitest";
import { callJson, createTenant, expectProblem } from "../../helpers/harness";

interface Operasional {
  indicators: { key: string; label: string; value: number }[];
}

describe("GET /api/statistik/operasional", () => {
  it("gives staff the indicators of the modules present, counted in their own tenant only", async () => {
    const tenant = await createTenant();
    const other = await createTenant();
    const bendahara = await tenant.member("bendahara");
    // Residents are registry persons living here (issue 13), not accounts: a KK of two, and a third
    // resident in the other tenant.
    for (const [t, people] of [
      [tenant, 2],
      [other, 1],
    ] as const) {
      const sek = await t.member("sekretaris");
      const unit = await callJson<{ id: string }>("/api/kependudukan/units", {
        token: sek.token,
        body: { block: "A", number: "1" },
      });
      const kk = await callJson<{ id: string }>("/api/kependudukan/kk", {
        token: sek.token,
        body: {
          kkNumber: "3201010101800001",
          unitId: unit.body.id,
          headName: "Budi",
          headNik: "3201010101800001",
          headSex: "L",
        },
      });
      if (people === 2) {
        await callJson(`/api/kependudukan/kk/${kk.body.id}/members`, {
          token: sek.token,
          body: { name: "Siti", nik: "3201014101820002", relationship: "istri", sex: "P" },
        });
      }
    }
    await tenant.member("warga");
    const res = await callJson<Operasional>("/api/statistik/operasional", { token: bendahara.token });
    expect(res.status).toBe(200);
    expect(res.body.indicators).toContainEqual({
      key: "totalResidents",
      label: "Total registered residents",
      value: 2,
    });
  });

  it("is for staff only", async () => {
    const tenant = await createTenant();
    const resident = await tenant.member("warga");
    expectProblem(
      await callJson("/api/statistik/operasional", { token: resident.token }),
      403,
      "forbidden_role",
    );
  });
});
