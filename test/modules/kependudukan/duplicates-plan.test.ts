import { describe, expect, it } from "vitest";
import { createTenant } from "../../helpers/harness";
import { countedGet, planOf } from "../../helpers/plans";

/**
 * The secretary's list of flagged plates reads the flagged vehicles through their own partial index
 * (`vehicles_duplicates_idx`), for the page and for the page's plates whose other holders it shows: it
 * walked every vehicle of the community in id order checking its flag, twice a request (6,000 vehicles
 * of `npm run bench -- routes` made it about 4 ms of SQL for one flagged pair).
 */
describe("the plate duplicates list", () => {
  it("walks only the flagged vehicles, for the page and for its plates' other holders", async () => {
    const tenant = await createTenant();
    const sek = await tenant.member("sekretaris");
    const { res, trips } = await countedGet(
      tenant,
      sek.token,
      "/api/kependudukan/vehicles/duplicates?limit=20",
    );
    expect(res.status).toBe(200);
    const reads = trips.flat().filter((text) => /from "vehicles"/.test(text));
    expect(reads).toHaveLength(2);
    for (const sql of reads) {
      const steps = await planOf(tenant, sql, 20);
      expect(steps, sql).toContainEqual(expect.stringMatching(/USING INDEX vehicles_duplicates_idx$/));
      // No walk over the community's vehicles: each other step is a search by key.
      expect(
        steps.filter((d) => /^SCAN vehicles/.test(d) && !/vehicles_duplicates_idx/.test(d)),
        sql,
      ).toEqual([]);
    }
  });
});
