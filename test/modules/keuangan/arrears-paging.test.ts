import { and, asc, eq } from "drizzle-orm";
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import type { TenantCtx } from "../../../src/core/context";
import { openCursor, sealCursor } from "../../../src/core/http/cursor";
import {
  arrears,
  arrearsAmountQuery,
  arrearsPage,
  arrearsUnitsQuery,
} from "../../../src/modules/keuangan/iuran/arrears";
import { generateBills } from "../../../src/modules/keuangan/iuran/generate";
import { duesOfUnit } from "../../../src/modules/keuangan/iuran/household";
import { createDuesType, updateDuesType } from "../../../src/modules/keuangan/iuran/jenis";
import { bucketStarts } from "../../../src/modules/keuangan/iuran/owed";
import { recordPayment } from "../../../src/modules/keuangan/iuran/payments";
import { periodOf, previousPeriod } from "../../../src/modules/keuangan/periods";
import { duesBills } from "../../../src/modules/keuangan/tables";
import { ctxAt, jakartaTime, setNow } from "../../helpers/clock";
import { memberCtx } from "../../helpers/contexts";
import { callJson, expectProblem } from "../../helpers/harness";
import { type Community, community } from "./helpers";

/**
 * Issue 32: `GET /api/iuran/tunggakan` answers a page of the units in arrears (owed descending, then
 * unit id) with totals over every unit, like the other lists (`limit`, `cursor`, `nextCursor`).
 */

const NOW = "2026-04-20T05:00:00.000Z";
const ARREARS = "/api/iuran/tunggakan";

interface Line {
  unitId: string;
  block: string | null;
  number: string | null;
  headName: string | null;
  waLink: string | null;
  owed: number;
  unpaidBills: number;
  oldestPeriod: string;
  aging: Record<string, number>;
}
interface Page {
  asOf: string;
  items: Line[];
  totals: { owed: number; units: number; aging: Record<string, number> };
  nextCursor: string | null;
}

/**
 * Eight houses owing Jan–Apr 2026 at Rp25,000 a month (May billed ahead, not yet owed, and paid ahead
 * by half of them); some paid January in part, so owed differ, and four owe the same, so the unit id
 * breaks ties across page edges.
 */
async function owingCommunity(): Promise<{ c: Community; ctx: TenantCtx; unitIds: string[] }> {
  const c = await community();
  const unitIds = [c.home.unitId];
  for (let i = 1; i <= 7; i++) {
    const unit = await callJson<{ id: string }>("/api/kependudukan/units", {
      token: c.sek.token,
      body: { block: "H", number: String(i) },
    });
    expect(unit.status).toBe(201);
    unitIds.push(unit.body.id);
  }
  const ctx = { ...(await memberCtx(c.tenant.slug, c.bendahara, "bendahara")), now: () => new Date(NOW) };
  await createDuesType({
    ctx,
    input: { name: "Iuran kebersihan", amount: 25_000, basis: "unit", startPeriod: "2026-01", active: true },
  });
  for (const period of ["2026-01", "2026-02", "2026-03", "2026-04", "2026-05"]) {
    await generateBills({ ctx, period });
  }
  // Units 4–7 pay off part of January: 5,000 × k, so four distinct amounts below the others' 100,000.
  for (let k = 1; k <= 4; k++) {
    const [bill] = await ctx.db
      .select()
      .from(duesBills)
      .where(eq(duesBills.unitId, unitIds[3 + k] as string))
      .orderBy(asc(duesBills.period))
      .limit(1);
    await recordPayment({
      ctx,
      id: bill?.id ?? "",
      input: { amount: 5_000 * k, method: "tunai", paidAt: "2026-01-10T03:00:00.000Z" },
    });
  }
  // Half the houses paid May ahead: their kept totals are their arrears; the others' hold May too.
  for (const unitId of [unitIds[0], unitIds[1], unitIds[4], unitIds[5]]) {
    const [may] = await ctx.db
      .select()
      .from(duesBills)
      .where(and(eq(duesBills.unitId, unitId as string), eq(duesBills.period, "2026-05")));
    await recordPayment({
      ctx,
      id: may?.id ?? "",
      input: { amount: 25_000, method: "transfer", paidAt: "2026-04-15T03:00:00.000Z" },
    });
  }
  return { c, ctx, unitIds };
}

/** Every page of the arrears through the route, following `nextCursor` to the end. */
async function walk(token: string, limit: number) {
  const pages: Page[] = [];
  let cursor: string | null = null;
  do {
    const query: string = `limit=${limit}${cursor ? `&cursor=${encodeURIComponent(cursor)}` : ""}`;
    const res = await callJson<Page>(`/api/iuran/tunggakan?${query}`, { token });
    expect(res.status).toBe(200);
    pages.push(res.body);
    cursor = res.body.nextCursor;
    expect(pages.length).toBeLessThan(20);
  } while (cursor);
  return pages;
}

describe("arrears, a page at a time", () => {
  it("pages owed descending then by unit, covering every unit once, with the totals of all on every page", async () => {
    setNow(NOW);
    const { c, ctx, unitIds } = await owingCommunity();
    const all = await arrears({ ctx });
    expect(all.items).toHaveLength(8);
    // May is billed but not yet owed: four months a house, less what was paid.
    expect(all.totals).toEqual({
      owed: 8 * 100_000 - 5_000 * (1 + 2 + 3 + 4),
      units: 8,
      aging: { d0_30: 200_000, d31_60: 200_000, d61_90: 200_000, d90plus: 150_000 },
    });
    const ties = all.items.filter((i) => i.owed === 100_000).map((i) => i.unitId);
    expect(ties).toEqual([...ties].sort());
    expect(ties).toHaveLength(4);

    // The first page: the documented default of 20 holds all eight, and says there is no next.
    const first = await callJson<Page>("/api/iuran/tunggakan", { token: c.bendahara.token });
    expect(first.status).toBe(200);
    expect(first.body.items).toEqual(all.items);
    expect(first.body.nextCursor).toBeNull();
    expect(first.body.asOf).toMatch(/^2026-04-20T/);

    for (const limit of [1, 3, 4]) {
      const pages = await walk(c.bendahara.token, limit);
      expect(pages).toHaveLength(Math.ceil(8 / limit));
      expect(pages.every((p) => p.items.length <= limit)).toBe(true);
      // In order, each unit exactly once, with the same figures as the every-unit read.
      expect(pages.flatMap((p) => p.items)).toEqual(all.items);
      for (const p of pages) {
        expect(p.totals).toEqual(all.totals);
      }
      expect(pages.at(-1)?.nextCursor).toBeNull();
    }
    const page = await callJson<Page>("/api/iuran/tunggakan?limit=3", { token: c.sek.token });
    expect(openCursor(ARREARS, page.body.nextCursor ?? "")).toBe(`100000~${ties[2]}`);
    expect(page.body.items.map((i) => i.unitId)).toEqual(ties.slice(0, 3));
    expect(page.body.items[0]).toMatchObject({ block: expect.any(String), number: expect.any(String) });
    expect(unitIds).toContain(page.body.items[0]?.unitId);

    // A cursor past the last unit (someone paid meanwhile) is an empty page that still has the totals.
    const past = await callJson<Page>(`${ARREARS}?cursor=${sealCursor(ARREARS, "0~zzzz")}`, {
      token: c.bendahara.token,
    });
    expect(past.body).toMatchObject({ items: [], nextCursor: null, totals: all.totals });
  });

  it("refuses a bad limit or cursor as the other lists do", async () => {
    const c = await community();
    for (const query of ["limit=0", "limit=101", "limit=abc", "limit=2.5", `cursor=${"9".repeat(513)}`]) {
      expectProblem(
        await callJson(`/api/iuran/tunggakan?${query}`, { token: c.bendahara.token }),
        400,
        "invalid_input",
      );
    }
    // Not a cursor at all, and (sealed as this list would seal them) keys the list never writes.
    const keys = ["abc", "100000", "~unit", "12a~unit", "-5~unit", "1~a~b", "1.5~unit"];
    for (const cursor of [...keys, ...keys.map((key) => sealCursor(ARREARS, key))]) {
      expectProblem(
        await callJson(`/api/iuran/tunggakan?cursor=${encodeURIComponent(cursor)}`, {
          token: c.bendahara.token,
        }),
        400,
        "invalid_cursor",
      );
    }
    expectProblem(
      await callJson("/api/iuran/tunggakan?limit=5", { token: c.home.warga.token }),
      403,
      "forbidden_role",
    );
  });

  it("shows another tenant none of it, whatever cursor it is given", async () => {
    setNow(NOW);
    const { c } = await owingCommunity();
    const other = await community();
    const mine = await callJson<Page>("/api/iuran/tunggakan?limit=2", { token: c.bendahara.token });
    expect(mine.body.items).toHaveLength(2);
    for (const query of ["", `?limit=2&cursor=${mine.body.nextCursor}`]) {
      const theirs = await callJson<Page>(`/api/iuran/tunggakan${query}`, { token: other.bendahara.token });
      expect(theirs.status).toBe(200);
      expect(theirs.body).toMatchObject({
        items: [],
        nextCursor: null,
        totals: { owed: 0, units: 0, aging: { d0_30: 0, d31_60: 0, d61_90: 0, d90plus: 0 } },
      });
    }
  });

  it("reads the same page through the verb as through the route", async () => {
    setNow(NOW);
    const { ctx } = await owingCommunity();
    const page = await arrearsPage({ ctx, input: { limit: 5 } });
    const rest = await arrearsPage({ ctx, input: { limit: 5, cursor: page.nextCursor ?? undefined } });
    expect([...page.items, ...rest.items]).toEqual((await arrears({ ctx })).items);
    expect(rest.nextCursor).toBeNull();
  });
});

describe("the current month apart from the arrears, and who to remind (issue 45)", () => {
  it("a bill is tunggakan only after its type's due day in Jakarta: not on the day, from the next", async () => {
    const c = await community();
    const base = await memberCtx(c.tenant.slug, c.bendahara, "bendahara");
    const ctx = ctxAt(base, jakartaTime("2026-10-01"));
    const type = await createDuesType({
      ctx,
      input: {
        name: "Iuran kebersihan",
        amount: 25_000,
        basis: "unit",
        startPeriod: "2026-09",
        active: true,
        dueDay: 10,
      },
    });
    expect(type.dueDay).toBe(10);
    await generateBills({ ctx, period: "2026-09" });
    await generateBills({ ctx, period: "2026-10" });
    const dashboard = async (at: Date) => {
      const [[amount], [units]] = await base.db.batch([
        arrearsAmountQuery(ctxAt(base, at)),
        arrearsUnitsQuery(ctxAt(base, at)),
      ]);
      return { amount: Number(amount?.n), units: Number(units?.n) };
    };

    // The due day itself, late in the evening WIB: October is still "bulan ini".
    const onTheDay = ctxAt(base, jakartaTime("2026-10-10", 23));
    const page = await arrearsPage({ ctx: onTheDay, input: { limit: 20 } });
    expect(page.totals.owed).toBe(25_000);
    expect(page.items).toEqual([expect.objectContaining({ unitId: c.home.unitId, oldestPeriod: "2026-09" })]);
    // The page ages in SQL before it knows the due day; the whole list ages in JavaScript after it.
    const whole = await arrears({ ctx: onTheDay });
    expect(page.totals).toEqual(whole.totals);
    expect(page.items).toEqual(whole.items);
    expect(page.bulanIni).toEqual({
      period: "2026-10",
      dueDate: "2026-10-10",
      overdue: false,
      outstanding: 25_000,
      units: 1,
    });
    expect(await dashboard(jakartaTime("2026-10-10", 23))).toEqual({ amount: 25_000, units: 1 });
    const mine = await duesOfUnit(onTheDay, c.home.unitId);
    expect(mine.items.map((b) => [b.period, b.dueDate, b.overdue])).toEqual([
      ["2026-09", "2026-09-10", true],
      ["2026-10", "2026-10-10", false],
    ]);
    expect(mine.totals).toMatchObject({ outstanding: 50_000, overdue: 25_000, notYetDue: 25_000 });

    // 00:30 WIB the day after (still the 10th in UTC): October is tunggakan too.
    const dayAfter = ctxAt(base, new Date("2026-10-10T17:30:00.000Z"));
    const later = await arrearsPage({ ctx: dayAfter, input: { limit: 20 } });
    expect(later.totals.owed).toBe(50_000);
    expect(later.totals).toEqual((await arrears({ ctx: dayAfter })).totals);
    expect(later.totals.aging).toEqual({ d0_30: 25_000, d31_60: 25_000, d61_90: 0, d90plus: 0 });
    expect(later.bulanIni).toMatchObject({ overdue: true, outstanding: 25_000 });
    expect(await dashboard(new Date("2026-10-10T17:30:00.000Z"))).toEqual({ amount: 50_000, units: 1 });
    expect((await duesOfUnit(dayAfter, c.home.unitId)).totals).toMatchObject({
      overdue: 50_000,
      notYetDue: 0,
    });

    // A due day past the month's end is its last day: on 30 November still due, on 1 December owed.
    await updateDuesType({
      ctx,
      id: type.id,
      input: {
        name: "Iuran kebersihan",
        amount: 25_000,
        basis: "unit",
        startPeriod: "2026-09",
        active: true,
        dueDay: 31,
      },
    });
    await generateBills({ ctx, period: "2026-11" });
    const monthEnd = ctxAt(base, jakartaTime("2026-11-30", 23));
    const end = await arrearsPage({ ctx: monthEnd, input: { limit: 20 } });
    expect(end.bulanIni).toMatchObject({ period: "2026-11", dueDate: "2026-11-30", overdue: false });
    expect(end.totals.owed).toBe(50_000);
    const november = (await duesOfUnit(monthEnd, c.home.unitId)).items.find((b) => b.period === "2026-11");
    expect(november).toMatchObject({ dueDate: "2026-11-30", overdue: false });
    const december = await arrearsPage({
      ctx: ctxAt(base, jakartaTime("2026-12-01", 0)),
      input: { limit: 20 },
    });
    expect(december.totals.owed).toBe(75_000);

    // An update that leaves the due day out keeps it; a due day outside 1-31 is refused.
    const kept = await updateDuesType({
      ctx,
      id: type.id,
      input: {
        name: "Iuran kebersihan",
        amount: 25_000,
        basis: "unit",
        startPeriod: "2026-09",
        active: true,
      },
    });
    expect(kept.dueDay).toBe(31);
    for (const dueDay of [0, 32, 1.5]) {
      expectProblem(
        await callJson("/api/iuran/jenis", {
          token: c.bendahara.token,
          body: { name: "Iuran sampah", amount: 10_000, basis: "unit", startPeriod: "2026-09", dueDay },
        }),
        400,
        "invalid_input",
      );
    }
  });

  it("names the family head, and gives the treasurer (not the secretary) a WhatsApp reminder link", async () => {
    setNow(NOW);
    const { c } = await owingCommunity();
    const page = await callJson<Page>("/api/iuran/tunggakan", { token: c.bendahara.token });
    const home = page.body.items.find((i) => i.unitId === c.home.unitId);
    expect(home?.headName).toBe("Budi Santoso");
    const link = new URL(home?.waLink ?? "");
    expect(`${link.origin}${link.pathname}`).toMatch(/^https:\/\/wa\.me\/62813\d{7}$/);
    const text = link.searchParams.get("text") ?? "";
    expect(text).toContain("Budi Santoso");
    expect(text).toContain(`Rp${(home?.owed ?? 0).toLocaleString("id-ID")}`);
    // A house with no family card and no resident account: nobody to name or message.
    const empty = page.body.items.find((i) => i.unitId !== c.home.unitId);
    expect(empty).toMatchObject({ headName: null, waLink: null });
    // The secretary sees the arrears, but no numbers (issue 44).
    const sek = await callJson<Page>("/api/iuran/tunggakan", { token: c.sek.token });
    expect(sek.body.items.find((i) => i.unitId === c.home.unitId)).toMatchObject({
      headName: "Budi Santoso",
      waLink: null,
    });
  });
});

describe("the aging buckets' edges", () => {
  it("from the month before are the current month's, no later than that month (what the page's SQL takes)", () => {
    // arrearsPage reads the due day in its own batch, so its statements take the edges as
    // `min(edge as of the current month, latest period owed)`; this is why that is the same.
    fc.assert(
      fc.property(
        fc.date({
          min: new Date("2020-01-01T00:00:00Z"),
          max: new Date("2035-12-31T23:59:59Z"),
          noInvalidDate: true,
        }),
        (now) => {
          const current = periodOf(now);
          const calendar = bucketStarts(now, current);
          for (const through of [current, previousPeriod(current)]) {
            const exact = bucketStarts(now, through);
            for (const edge of ["p30", "p60", "p90"] as const) {
              expect(exact[edge]).toBe([calendar[edge], through].sort()[0]);
            }
          }
        },
      ),
      { numRuns: 500 },
    );
  });
});
