import { describe, expect, it } from "vitest";
import { tenantD1 } from "../../helpers/d1";
import { callJson, createTenant, operatorToken } from "../../helpers/harness";
import { readyExport } from "../platform-ops/helpers";

/**
 * Issue 32: the registry's tallies (`registry_counts`, `registry_birth_months`, `units_block_counts`) are
 * kept by triggers, so an archive leaves them out (platform-ops/tables.ts `keptByTriggers`) and a restore
 * rebuilds them from the cards, members and units it writes: the restored tenant has the same tallies,
 * not twice them, and answers the same statistics.
 */

const base = "/api/kependudukan";

async function tallies(db: D1Database) {
  const [counts, months, blocks] = await db.batch([
    db.prepare(
      "SELECT living_status, sex, religion, residence_status, persons FROM registry_counts ORDER BY 1, 2, 3, 4",
    ),
    db.prepare("SELECT birth_month, persons FROM registry_birth_months ORDER BY 1"),
    db.prepare("SELECT block, families, persons, vehicles FROM units_block_counts ORDER BY 1"),
  ]);
  return { counts: counts?.results, months: months?.results, blocks: blocks?.results };
}

describe("registry tallies through an archive restore", () => {
  it("restores the same tallies and statistics, not twice them", async () => {
    const tenant = await createTenant();
    const sek = await tenant.member("sekretaris");
    const admin = await tenant.member("admin");
    const db = tenantD1(tenant);
    // Units written in one order, cards in another: the restore builds the blocks' rows in unit order.
    const unitIds: string[] = [];
    for (const [block, number] of [
      ["A", "1"],
      ["B", "2"],
      ["C", "3"],
    ] as const) {
      const unit = await callJson<{ id: string }>(`${base}/units`, {
        token: sek.token,
        body: { block, number },
      });
      expect(unit.status).toBe(201);
      unitIds.push(unit.body.id);
    }
    const heads = [
      { unit: 2, nik: "3204021503850001", born: "1985-03-15", sex: "L" },
      { unit: 0, nik: "3204025507900002", born: "1990-07-15", sex: "P" },
      { unit: 1, nik: "3204020101600003", born: "1960-01-01", sex: "L" },
    ];
    const cardIds: string[] = [];
    for (const [i, head] of heads.entries()) {
      const card = await callJson<{ id: string }>(`${base}/kk`, {
        token: sek.token,
        body: {
          kkNumber: `320402150385900${i}`,
          unitId: unitIds[head.unit],
          headName: `Kepala ${i}`,
          headNik: head.nik,
          headSex: head.sex,
          headBirthDate: head.born,
          headReligion: "islam",
          headResidenceStatus: "tetap",
        },
      });
      expect(card.status, JSON.stringify(card.body)).toBe(201);
      cardIds.push(card.body.id);
    }
    await db.batch([
      db
        .prepare(
          `INSERT INTO family_members (id, family_card_id, name, nik, relationship, sex, birth_date, religion, living_status, residence_status, updated_at)
           VALUES ('r-1', ?1, 'Anak Satu', '3204024101150001', 'anak', 'P', '2015-01-01', 'kristen', 'hidup', 'kontrak', '2026-01-01'),
                  ('r-2', ?1, 'Nenek', '3204024101300002', 'orang_tua', 'P', '1930-01-01', NULL, 'meninggal', NULL, '2026-01-01'),
                  ('r-3', ?2, 'Anak Dua', '3204020101200003', 'anak', 'L', '2020-01-01', 'islam', 'hidup', 'tetap', '2026-01-01'),
                  ('r-4', ?3, 'Adik', '3204020101950004', 'famili_lain', 'L', NULL, 'hindu', 'hidup', 'kos', '2026-01-01')`,
        )
        .bind(cardIds[0], cardIds[1], cardIds[2]),
      db
        .prepare(
          "INSERT INTO vehicles (id, family_card_id, plate, kind, updated_at) VALUES ('rv-1', ?, 'D 1 RST', 'motor', '2026-01-01')",
        )
        .bind(cardIds[1]),
      db.prepare("UPDATE family_cards SET status = 'pindah' WHERE id = ?").bind(cardIds[2]),
    ]);
    const before = await tallies(db);
    expect(before.counts?.length).toBeGreaterThan(2);
    expect(before.blocks).toHaveLength(2);
    const statsBefore = await callJson(`${base}/statistik`, { token: sek.token });
    expect(statsBefore.status).toBe(200);

    const archiveId = await readyExport(admin.token);

    const target = await createTenant();
    const imported = await callJson<{ report: { tables: Record<string, number> } }>(
      `/api/platform/tenants/${target.id}/imports?archiveId=${archiveId}`,
      { method: "POST", token: await operatorToken() },
    );
    expect(imported.status, JSON.stringify(imported.body)).toBe(200);
    // The archive holds the rows the tallies count, not the tallies.
    const archived = Object.keys(imported.body.report.tables);
    expect(archived).toContain("family_members");
    for (const derived of ["registry_counts", "registry_birth_months", "units_block_counts"]) {
      expect(archived).not.toContain(derived);
    }

    expect(await tallies(tenantD1(target))).toEqual(before);
    const targetSek = await target.member("sekretaris");
    const statsAfter = await callJson(`${base}/statistik`, { token: targetSek.token });
    expect(statsAfter.status).toBe(200);
    expect(statsAfter.body).toEqual(statsBefore.body);
  });
});
