import { describe, expect, it } from "vitest";
import { tenantD1, withTrigger } from "../../helpers/d1";
import { callJson, expectProblem } from "../../helpers/harness";
import { community } from "./helpers";

/**
 * The kept dues balances ride in the batches of the writes that move bills (ADR 0028): when such a
 * batch fails at its last statement (the audit record), the kept rows, and the unit's kept totals, are
 * as they were before it.
 */

async function keptRows(slot: D1Database, unitId: string) {
  const { results } = await slot
    .prepare("SELECT period, outstanding, open_bills FROM dues_balances WHERE unit_id = ? ORDER BY period")
    .bind(unitId)
    .all<{ period: string; outstanding: number; open_bills: number }>();
  return results;
}

/** The unit's kept totals over its slots (`dues_unit_balances`), written in the same batches. */
async function keptUnit(slot: D1Database, unitId: string) {
  return slot
    .prepare(
      "SELECT owed, open_bills, oldest_period, newest_period FROM dues_unit_balances WHERE unit_id = ?",
    )
    .bind(unitId)
    .first();
}

describe("kept dues balances under batch faults", () => {
  it("a generation or a payment failing at its audit record leaves the kept rows as they were", async () => {
    const c = await community();
    const db = tenantD1(c.tenant);
    const name = c.tenant.slug.replaceAll("-", "_");
    const type = await callJson("/api/iuran/jenis", {
      token: c.bendahara.token,
      body: { name: "Iuran kebersihan", amount: 25_000, basis: "unit", startPeriod: "2026-01" },
    });
    expect(type.status).toBe(201);

    const failedGeneration = await withTrigger(
      db,
      `fail_generate_${name}`,
      `BEFORE INSERT ON audit_log WHEN NEW.action = 'iuran.generate' AND NEW.target_id = '2026-02'
         BEGIN SELECT RAISE(ABORT, 'forced failure'); END`,
      () =>
        callJson("/api/iuran/tagihan/generate", { token: c.bendahara.token, body: { period: "2026-02" } }),
    );
    expectProblem(failedGeneration, 500, "internal_error");
    expect(await keptRows(db, c.home.unitId)).toEqual([]);
    expect(await keptUnit(db, c.home.unitId)).toBeNull();

    const generated = await callJson("/api/iuran/tagihan/generate", {
      token: c.bendahara.token,
      body: { period: "2026-02" },
    });
    expect(generated.status).toBe(200);
    const bills = await callJson<{ items: { id: string; unitId: string }[] }>(
      `/api/iuran/tagihan?unitId=${c.home.unitId}`,
      { token: c.bendahara.token },
    );
    const billId = bills.body.items[0]?.id ?? "";
    const before = await keptRows(db, c.home.unitId);
    expect(before).toEqual([{ period: "2026-02", outstanding: 25_000, open_bills: 1 }]);
    const unitBefore = { owed: 25_000, open_bills: 1, oldest_period: "2026-02", newest_period: "2026-02" };
    expect(await keptUnit(db, c.home.unitId)).toEqual(unitBefore);

    const failedPayment = await withTrigger(
      db,
      `fail_pay_${name}`,
      `BEFORE INSERT ON audit_log WHEN NEW.action = 'iuran.payment' AND NEW.target_id = '${billId}'
         BEGIN SELECT RAISE(ABORT, 'forced failure'); END`,
      () =>
        callJson(`/api/iuran/tagihan/${billId}/pembayaran`, {
          token: c.bendahara.token,
          body: { amount: 25_000, method: "tunai", paidAt: "2026-02-05T03:00:00.000Z" },
        }),
    );
    expectProblem(failedPayment, 500, "internal_error");
    expect(await keptRows(db, c.home.unitId)).toEqual(before);
    expect(await keptUnit(db, c.home.unitId)).toEqual(unitBefore);

    const paid = await callJson(`/api/iuran/tagihan/${billId}/pembayaran`, {
      token: c.bendahara.token,
      body: { amount: 25_000, method: "tunai", paidAt: "2026-02-05T03:00:00.000Z" },
    });
    expect(paid.status).toBe(201);
    expect(await keptRows(db, c.home.unitId)).toEqual([]);
    expect(await keptUnit(db, c.home.unitId)).toBeNull();
  });
});
