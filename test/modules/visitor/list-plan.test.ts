import { describe, expect, it } from "vitest";
import { createTenant } from "../../helpers/harness";
import { countedGet, planOf } from "../../helpers/plans";

/**
 * The review list by status reads one range of the (status, id) index, newest first, and stops at the
 * page: not every guest of that status read and sorted (5,004 guests made it the slowest list of
 * `npm run bench -- routes` at 6.65 ms of CPU). The list of guests inside now walked every guest.
 */
/** The plan of the list's read of `visitors` for `query`, as the staff list runs it. */
async function listPlan(query: string): Promise<string[]> {
  const tenant = await createTenant();
  const sek = await tenant.member("sekretaris");
  const { res, trips } = await countedGet(tenant, sek.token, `/api/visitor?${query}`);
  expect(res.status).toBe(200);
  const sql = trips.flat().find((text) => /from "visitors"/.test(text)) ?? "";
  return planOf(tenant, sql, "menunggu");
}

describe("the guest list by status", () => {
  it("walks the status index in id order, with no sort and no scan of the table", async () => {
    const steps = await listPlan("status=menunggu&limit=20");
    expect(steps).toContainEqual(
      expect.stringMatching(/^SEARCH visitors USING INDEX visitors_status_id_idx \(status=\?/),
    );
    expect(steps.filter((d) => /TEMP B-TREE|^SCAN visitors/.test(d))).toEqual([]);
  });

  it("of guests inside now walks only their rows (a partial index), not every guest ever registered", async () => {
    const steps = await listPlan("inside=true");
    expect(steps).toEqual([expect.stringMatching(/^SCAN visitors USING INDEX visitors_inside_now_idx$/)]);
  });
});
