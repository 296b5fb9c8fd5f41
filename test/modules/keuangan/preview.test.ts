import { describe, expect, it } from "vitest";
import { callJson, expectProblem } from "../../helpers/harness";
import { nik } from "../surat/helpers";
import { type Community, community } from "./helpers";

/** Issue 46: the console shows what a month's generation would issue before the treasurer runs it. */
interface Preview {
  period: string;
  bills: number;
  existing: number;
  total: number;
  types: {
    typeId: string;
    name: string;
    basis: string;
    amount: number;
    bills: number;
    existing: number;
    total: number;
  }[];
}

const preview = (c: Community, period: string, token = c.bendahara.token) =>
  callJson<Preview>(`/api/iuran/tagihan/pratinjau?period=${period}`, { token });

async function duesType(c: Community, body: Record<string, unknown>) {
  const res = await callJson<{ id: string }>("/api/iuran/jenis", {
    token: c.bendahara.token,
    body: { name: "Iuran kebersihan", amount: 25_000, basis: "unit", startPeriod: "2026-01", ...body },
  });
  expect(res.status).toBe(201);
  return res.body.id;
}

async function billCount(c: Community, period: string) {
  const res = await callJson<{ items: unknown[] }>(`/api/iuran/tagihan?limit=100&period=${period}`, {
    token: c.sek.token,
  });
  expect(res.status).toBe(200);
  return res.body.items.length;
}

describe("the preview of a month's bills", () => {
  it("counts what the generation then issues, writes nothing, and counts the issued ones as existing", async () => {
    const c = await community();
    const unit = await duesType(c, {});
    const kk = await duesType(c, { name: "Iuran keamanan", amount: 50_000, basis: "kk" });
    // Not yet in force in March: left out of the preview as of the generation.
    await duesType(c, { name: "Iuran sosial", amount: 10_000, startPeriod: "2026-06" });

    const before = await preview(c, "2026-03");
    expect(before.status).toBe(200);
    expect(before.body).toMatchObject({ period: "2026-03", bills: 2, existing: 0, total: 75_000 });
    expect(before.body.types).toEqual(
      expect.arrayContaining([
        expect.objectContaining({
          typeId: unit,
          basis: "unit",
          amount: 25_000,
          bills: 1,
          existing: 0,
          total: 25_000,
        }),
        expect.objectContaining({
          typeId: kk,
          basis: "kk",
          amount: 50_000,
          bills: 1,
          existing: 0,
          total: 50_000,
        }),
      ]),
    );
    expect(before.body.types).toHaveLength(2);
    expect(await billCount(c, "2026-03")).toBe(0);

    const generated = await callJson<{ created: number; existing: number }>("/api/iuran/tagihan/generate", {
      token: c.bendahara.token,
      body: { period: "2026-03" },
    });
    expect(generated.body).toMatchObject({ created: before.body.bills, existing: 0 });

    const after = await preview(c, "2026-03", c.admin.token);
    expect(after.status).toBe(200);
    expect(after.body).toMatchObject({ bills: 0, existing: 2, total: 0 });

    // The household's house exempted after its March bill: no longer a target, so its bill is not one of
    // the month's existing ones either (nothing to issue, nothing counted twice).
    const exempted = await callJson(`/api/iuran/jenis/${unit}`, {
      method: "PUT",
      token: c.bendahara.token,
      body: {
        name: "Iuran kebersihan",
        amount: 25_000,
        basis: "unit",
        startPeriod: "2026-01",
        exemptUnitIds: [c.home.unitId],
      },
    });
    expect(exempted.status, JSON.stringify(exempted.body)).toBe(200);
    const again = await preview(c, "2026-03");
    expect(again.body.types.find((t) => t.typeId === unit)).toMatchObject({ bills: 0, existing: 0 });
    expect(again.body).toMatchObject({ bills: 0, existing: 1, total: 0 });
  });

  it("counts as the generation bills: exempt and empty houses, billing empty ones, a family that moved out", async () => {
    const c = await community();
    const unit = async (number: string, occupancy?: string) => {
      const res = await callJson<{ id: string }>("/api/kependudukan/units", {
        token: c.sek.token,
        body: { block: "P", number, ...(occupancy ? { occupancy } : {}) },
      });
      expect(res.status).toBe(201);
      return res.body.id;
    };
    const mutasi = async (body: Record<string, unknown>) => {
      const res = await callJson<{ familyCardId: string }>("/api/kependudukan/mutasi", {
        token: c.sek.token,
        body,
      });
      expect(res.status, JSON.stringify(res.body)).toBe(201);
      return res.body.familyCardId;
    };
    await unit("1", "kosong");
    const exempt = await unit("2");
    const leaving = await unit("3");
    const card = await mutasi({
      kind: "pindah_masuk",
      date: "2026-01-10",
      kkNumber: nik(),
      unitId: leaving,
      headName: "Slamet Riyadi",
      headNik: nik("120370"),
      headSex: "L",
    });
    await mutasi({ kind: "pindah_keluar", date: "2026-03-15", familyCardId: card });
    await duesType(c, { exemptUnitIds: [exempt] });
    await duesType(c, { name: "Iuran keamanan", amount: 50_000, basis: "kk" });

    // Each month previewed, then generated (the generation's counts are the preview's), then previewed
    // again (all of it now existing). March: the household's house, its card and the leaving family's
    // card (billed for the month it left); April: the household alone; May: the empty houses too (the
    // exempt one never).
    const expected = { "2026-03": 3, "2026-04": 2, "2026-05": 4 } as Record<string, number>;
    for (const period of ["2026-03", "2026-04", "2026-05"]) {
      if (period === "2026-05") {
        const setting = await callJson("/api/keuangan/pengaturan", {
          method: "PUT",
          token: c.admin.token,
          body: { billEmptyUnits: true },
        });
        expect(setting.status).toBe(200);
      }
      const before = await preview(c, period);
      expect(before.body, period).toMatchObject({ bills: expected[period], existing: 0 });
      const generated = await callJson<{ created: number; existing: number }>("/api/iuran/tagihan/generate", {
        token: c.bendahara.token,
        body: { period },
      });
      expect(generated.body, period).toMatchObject({ created: before.body.bills, existing: 0 });
      expect(await billCount(c, period)).toBe(before.body.bills);
      const after = await preview(c, period);
      expect(after.body, period).toMatchObject({ bills: 0, existing: before.body.bills, total: 0 });
    }
  });

  it("refuses a bad month, the secretary and a resident; another tenant sees none of it", async () => {
    const c = await community();
    await duesType(c, {});
    expectProblem(await preview(c, "2026-13"), 400, "invalid_input");
    expectProblem(
      await callJson("/api/iuran/tagihan/pratinjau", { token: c.bendahara.token }),
      400,
      "invalid_input",
    );
    expectProblem(await preview(c, "2026-03", c.sek.token), 403, "forbidden_role");
    expectProblem(await preview(c, "2026-03", c.home.warga.token), 403, "forbidden_role");

    const other = await community();
    const theirs = await preview(other, "2026-03");
    expect(theirs.status).toBe(200);
    expect(theirs.body).toMatchObject({ bills: 0, existing: 0, total: 0, types: [] });
  });
});
