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
    await tenant.member("warga");
    await tenant.member("warga");
    await other.member("warga");
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
