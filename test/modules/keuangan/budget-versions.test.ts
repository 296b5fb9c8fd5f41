import { describe, expect, it } from "vitest";
import { versionedResources } from "../../../src/app";
import { DbScope } from "../../../src/core/db/handles";
import { PreconditionFailed } from "../../../src/core/errors";
import { putBudget } from "../../../src/modules/keuangan/anggaran/budget";
import { VersionedWrite } from "../../../src/platform/conditional";
import { auditTrail, inScope, losingRace, memberCtx } from "../../helpers/contexts";
import { tenantD1, withTrigger } from "../../helpers/d1";
import { bindings, call, callJson, expectProblem } from "../../helpers/harness";
import { community } from "./helpers";

/**
 * The budget as a versioned resource (ADR 0035, Update): each year of each community has its own
 * version (`budget_years`), moved by every PUT of the year's lines in the same batch; GET
 * /api/anggaran?tahun= answers the ETag of the year it shows. test/core/conditional.test.ts walks the
 * common part (304, 412, the lost update); this file holds what is the budget's own.
 */

const TAG = /^"(\d+)-[0-9a-f]{16}"$/;
const versionOf = (etag: string | null) => Number(TAG.exec(etag ?? "")?.[1] ?? Number.NaN);

const lines = (amount: number) => ({ lines: [{ category: "Keamanan", amount }] });

const readBudget = (token: string, year: number, headers: Record<string, string> = {}) =>
  call(`/api/anggaran?tahun=${year}`, { token, headers });

const putYear = (token: string, year: number, body: unknown, ifMatch?: string) =>
  callJson<{ lines: { category: string; amount: number }[] }>(`/api/anggaran/${year}`, {
    method: "PUT",
    token,
    body,
    headers: ifMatch === undefined ? {} : { "If-Match": ifMatch },
  });

async function yearRows(db: D1Database, year: number) {
  const { results } = await db
    .prepare("SELECT category, amount FROM budget_lines WHERE year = ?1 ORDER BY category")
    .bind(year)
    .all<{ category: string; amount: number }>();
  const version = await db
    .prepare("SELECT row_version AS v FROM budget_years WHERE year = ?1")
    .bind(year)
    .first<number>("v");
  return { lines: results, version };
}

describe("the budget's ETag", () => {
  it("is the year's own, in each community: another year and another community keep theirs", async () => {
    const [a, b] = [await community(), await community()];
    const unsaved = await readBudget(a.sek.token, 2040);
    expect(unsaved.status).toBe(200);
    expect(versionOf(unsaved.headers.get("ETag"))).toBe(0);

    const saved = await putYear(a.admin.token, 2040, lines(12_000_000), unsaved.headers.get("ETag") ?? "");
    expect(saved.status).toBe(200);
    const etagA = saved.headers.get("ETag");
    expect(versionOf(etagA)).toBe(1);
    expect(versionOf((await readBudget(a.sek.token, 2041)).headers.get("ETag"))).toBe(0);

    // B's 2040 is B's budget: not yet saved, and A's tag names no version of it.
    const inB = await readBudget(b.sek.token, 2040);
    expect(await inB.json()).toMatchObject({ year: 2040, lines: [] });
    expect(versionOf(inB.headers.get("ETag"))).toBe(0);
    expectProblem(await putYear(b.admin.token, 2040, lines(1), etagA ?? ""), 412, "precondition_failed");
    expect((await yearRows(tenantD1(b.tenant), 2040)).lines).toEqual([]);
    expect((await yearRows(tenantD1(a.tenant), 2040)).lines).toEqual([
      { category: "Keamanan", amount: 12_000_000 },
    ]);
  });

  it("moves with the realisation's body but not its version: If-None-Match sees it, If-Match does not care", async () => {
    const c = await community();
    await putYear(c.admin.token, 2026, lines(10_000_000));
    const before = await readBudget(c.sek.token, 2026);
    const etag = before.headers.get("ETag") ?? "";
    const spent = await callJson("/api/kas", {
      token: c.bendahara.token,
      body: {
        kind: "keluar",
        category: "Keamanan",
        amount: 400_000,
        date: "2026-03-02",
        note: "Honor ronda",
      },
    });
    expect(spent.status).toBe(201);

    const after = await readBudget(c.sek.token, 2026, { "If-None-Match": etag });
    expect(after.status).toBe(200);
    expect(after.headers.get("ETag")).not.toBe(etag);
    expect(versionOf(after.headers.get("ETag"))).toBe(versionOf(etag));
    // Only the lines are the budget's to change; the cash book moved, the lines did not.
    const put = await putYear(c.admin.token, 2026, lines(11_000_000), etag);
    expect(put.status).toBe(200);
    expect(versionOf(put.headers.get("ETag"))).toBe(versionOf(etag) + 1);
  });

  it("moves when a PUT empties the year, and is 400 with no ETag for a year that is not one", async () => {
    const c = await community();
    const first = await putYear(c.admin.token, 2027, lines(5_000_000));
    const emptied = await putYear(c.admin.token, 2027, { lines: [] }, first.headers.get("ETag") ?? "");
    expect(emptied.status).toBe(200);
    expect(emptied.body.lines).toEqual([]);
    expect(versionOf(emptied.headers.get("ETag"))).toBe(versionOf(first.headers.get("ETag")) + 1);

    const bad = await callJson("/api/anggaran?tahun=dua-ribu", { token: c.sek.token });
    expectProblem(bad, 400, "invalid_input");
    expect(bad.headers.get("ETag")).toBeNull();
  });
});

describe("the budget's If-Match guard rides in the PUT's own batch", () => {
  const resource = () => {
    const found = versionedResources.find((v) => v.path === "/api/anggaran/:tahun");
    if (!found) {
      throw new Error("the budget is not versioned");
    }
    return found;
  };

  it("refuses the whole PUT when another landed between the early check and the batch", async () => {
    const c = await community();
    const db = tenantD1(c.tenant);
    await putYear(c.admin.token, 2028, lines(8_000_000));
    const seen = (await yearRows(db, 2028)).version ?? 0;
    const ctx = await memberCtx(c.tenant.slug, c.admin, "admin");
    // The rival's PUT, on the raw binding (outside this request's hook): its lines and its year's row.
    const rival = () =>
      db.batch([
        db.prepare("DELETE FROM budget_lines WHERE year = 2028"),
        db.prepare(
          "INSERT INTO budget_lines (id, year, category, amount) VALUES ('rival-2028', 2028, 'Sosial', 700000)",
        ),
        db.prepare("UPDATE budget_years SET updated_at = 'rival' WHERE year = 2028"),
      ]);
    const late = new VersionedWrite(
      resource(),
      { key: 2028, tenantId: c.tenant.id },
      seen,
      bindings.PLATFORM_DB,
    );
    const puts = (await auditTrail(c.admin.token, "action=anggaran.put")).length;
    const request = new DbScope();
    const detach = request.attach(late);
    await expect(
      putBudget({ ctx: losingRace(inScope(ctx, request), rival), year: 2028, input: lines(9_000_000) }),
    ).rejects.toBeInstanceOf(PreconditionFailed);
    detach();
    expect(await yearRows(db, 2028)).toEqual({
      lines: [{ category: "Sosial", amount: 700_000 }],
      version: seen + 1,
    });
    expect(await auditTrail(c.admin.token, "action=anggaran.put")).toHaveLength(puts);

    // From the version the year has now, the same PUT goes through and learns its new version.
    const current = new VersionedWrite(
      resource(),
      { key: 2028, tenantId: c.tenant.id },
      seen + 1,
      bindings.PLATFORM_DB,
    );
    request.attach(current);
    await putBudget({ ctx: inScope(ctx, request), year: 2028, input: lines(9_000_000) });
    expect(current.version).toBe(seen + 2);
    expect(await yearRows(db, 2028)).toEqual({
      lines: [{ category: "Keamanan", amount: 9_000_000 }],
      version: seen + 2,
    });
  });

  it("leaves lines and version as they were when the batch fails at its last statement", async () => {
    const c = await community();
    const db = tenantD1(c.tenant);
    const first = await putYear(c.admin.token, 2029, lines(3_000_000));
    const name = c.tenant.slug.replaceAll("-", "_");
    const failed = await withTrigger(
      db,
      `fail_budget_${name}`,
      `BEFORE INSERT ON audit_log WHEN NEW.action = 'anggaran.put' AND NEW.target_id = '2029'
         BEGIN SELECT RAISE(ABORT, 'forced failure'); END`,
      () => putYear(c.admin.token, 2029, lines(4_000_000), first.headers.get("ETag") ?? ""),
    );
    expectProblem(failed, 500, "internal_error");
    expect(failed.headers.get("ETag")).toBeNull();
    expect(await yearRows(db, 2029)).toEqual({
      lines: [{ category: "Keamanan", amount: 3_000_000 }],
      version: 1,
    });
    expect((await readBudget(c.sek.token, 2029)).headers.get("ETag")).toBe(first.headers.get("ETag"));
  });
});
