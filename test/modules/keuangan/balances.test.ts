import { and, asc, eq, inArray, isNull, lte, sql } from "drizzle-orm";
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import type { TenantCtx } from "../../../src/core/context";
import { Conflict } from "../../../src/core/errors";
import { arrears, arrearsPage } from "../../../src/modules/keuangan/iuran/arrears";
import { generateBills } from "../../../src/modules/keuangan/iuran/generate";
import { createDuesType, updateDuesType } from "../../../src/modules/keuangan/iuran/jenis";
import { applyGatewayPayment, recordPayment } from "../../../src/modules/keuangan/iuran/payments";
import { reversePayment } from "../../../src/modules/keuangan/iuran/pembatalan";
import {
  duesBalances,
  duesBills,
  duesPayments,
  duesUnitBalances,
} from "../../../src/modules/keuangan/tables";
import { memberCtx } from "../../helpers/contexts";
import { callJson } from "../../helpers/harness";
import { household } from "../surat/helpers";
import { community } from "./helpers";

/**
 * Issue 32 item 3, ADR 0028: the kept dues balances (`dues_balances`) are rewritten in the batch of
 * every write of bills and payments. Random sequences of those writes (generation, exemptions before
 * it, manual payments, gateway settlements with repeated callbacks, refused overpayments, reversals)
 * must leave the kept rows and each unit's kept totals equal to a full recomputation from the bills, and
 * arrears read from them (every unit at once, and page by page) equal to arrears computed from every
 * bill. May is billed ahead of NOW now and then: owed on it is not yet arrears.
 */

const PERIODS = ["2026-01", "2026-02", "2026-03", "2026-04", "2026-05"] as const;
const NOW = new Date("2026-04-20T05:00:00.000Z");

type Op =
  | { kind: "generate"; period: number }
  | { kind: "exempt"; type: number; unit: number }
  | { kind: "pay"; bill: number; part: number; online: boolean; repeat: boolean }
  | { kind: "overpay"; bill: number }
  | { kind: "reverse"; payment: number };

const op: fc.Arbitrary<Op> = fc.oneof(
  fc.record({ kind: fc.constant("generate" as const), period: fc.nat(PERIODS.length - 1) }),
  fc.record({ kind: fc.constant("exempt" as const), type: fc.nat(1), unit: fc.nat(2) }),
  fc.record({
    kind: fc.constant("pay" as const),
    bill: fc.nat(50),
    part: fc.double({ min: 0.05, max: 1, noNaN: true }),
    online: fc.boolean(),
    repeat: fc.boolean(),
  }),
  fc.record({ kind: fc.constant("overpay" as const), bill: fc.nat(50) }),
  fc.record({ kind: fc.constant("reverse" as const), payment: fc.nat(50) }),
);

/** What the kept rows must say: every open bill grouped by its slot, straight from `dues_bills`. */
async function recomputed(ctx: TenantCtx) {
  const rows = await ctx.db
    .select({
      unitId: duesBills.unitId,
      period: duesBills.period,
      targetId: duesBills.targetId,
      basis: sql<string>`max(${duesBills.basis})`,
      familyId: sql<string | null>`max(${duesBills.familyId})`,
      outstanding: sql<number>`sum(${duesBills.amount} - ${duesBills.paidAmount})`,
      openBills: sql<number>`count(*)`,
    })
    .from(duesBills)
    .where(inArray(duesBills.status, ["belum", "sebagian"]))
    .groupBy(duesBills.unitId, duesBills.period, duesBills.targetId)
    .orderBy(asc(duesBills.unitId), asc(duesBills.period), asc(duesBills.targetId));
  return rows.map((r) => ({ ...r, outstanding: Number(r.outstanding), openBills: Number(r.openBills) }));
}

/** What each unit's kept totals must say: its open bills summed, straight from `dues_bills`. */
async function unitsRecomputed(ctx: TenantCtx) {
  const rows = await ctx.db
    .select({
      unitId: duesBills.unitId,
      owed: sql<number>`sum(${duesBills.amount} - ${duesBills.paidAmount})`,
      openBills: sql<number>`count(*)`,
      oldestPeriod: sql<string>`min(${duesBills.period})`,
      newestPeriod: sql<string>`max(${duesBills.period})`,
    })
    .from(duesBills)
    .where(inArray(duesBills.status, ["belum", "sebagian"]))
    .groupBy(duesBills.unitId)
    .orderBy(asc(duesBills.unitId));
  return rows.map((r) => ({ ...r, owed: Number(r.owed), openBills: Number(r.openBills) }));
}

async function keptUnits(ctx: TenantCtx) {
  return ctx.db.select().from(duesUnitBalances).orderBy(asc(duesUnitBalances.unitId));
}

/** The arrears route's answer walked page by page, `limit` units at a time. */
async function everyPage(ctx: TenantCtx, limit: number) {
  const pages = [await arrearsPage({ ctx, now: NOW, input: { limit } })];
  let cursor = pages[0]?.nextCursor;
  while (cursor) {
    const page = await arrearsPage({ ctx, now: NOW, input: { limit, cursor } });
    pages.push(page);
    cursor = page.nextCursor;
  }
  return pages;
}

async function kept(ctx: TenantCtx) {
  return ctx.db
    .select({
      unitId: duesBalances.unitId,
      period: duesBalances.period,
      targetId: duesBalances.targetId,
      basis: duesBalances.basis,
      familyId: duesBalances.familyId,
      outstanding: duesBalances.outstanding,
      openBills: duesBalances.openBills,
    })
    .from(duesBalances)
    .orderBy(asc(duesBalances.unitId), asc(duesBalances.period), asc(duesBalances.targetId));
}

/** Arrears per unit computed from every bill, as the route did before the kept balances. */
async function arrearsFromBills(ctx: TenantCtx) {
  const rows = await ctx.db
    .select({
      unitId: duesBills.unitId,
      owed: sql<number>`sum(${duesBills.amount} - ${duesBills.paidAmount})`,
      unpaidBills: sql<number>`count(*)`,
      oldestPeriod: sql<string>`min(${duesBills.period})`,
    })
    .from(duesBills)
    .where(and(inArray(duesBills.status, ["belum", "sebagian"]), lte(duesBills.period, "2026-04")))
    .groupBy(duesBills.unitId)
    .orderBy(asc(duesBills.unitId));
  return rows.map((r) => ({ ...r, owed: Number(r.owed), unpaidBills: Number(r.unpaidBills) }));
}

async function openBills(ctx: TenantCtx) {
  return ctx.db
    .select()
    .from(duesBills)
    .where(inArray(duesBills.status, ["belum", "sebagian"]))
    .orderBy(asc(duesBills.id));
}

describe("kept dues balances", () => {
  it("equal a full recomputation from the bills after any sequence of bills, payments, settlements, exemptions and reversals (property)", async () => {
    const c = await community();
    const second = await household(c.tenant, { sek: c.sek, admin: c.admin });
    const bare = await callJson<{ id: string }>("/api/kependudukan/units", {
      token: c.sek.token,
      body: { block: "G", number: "1" },
    });
    expect(bare.status).toBe(201);
    const unitIds = [c.home.unitId, second.unitId, bare.body.id];
    const ctx = { ...(await memberCtx(c.tenant.slug, c.bendahara, "bendahara")), now: () => NOW };
    const types = [
      await createDuesType({
        ctx,
        input: {
          name: "Iuran kebersihan",
          amount: 25_000,
          basis: "unit",
          startPeriod: "2026-01",
          active: true,
        },
      }),
      await createDuesType({
        ctx,
        input: { name: "Iuran sosial", amount: 15_000, basis: "kk", startPeriod: "2026-01", active: true },
      }),
    ];
    let orders = 0;
    let checked = 0;

    await fc.assert(
      fc.asyncProperty(fc.array(op, { minLength: 1, maxLength: 10 }), async (ops) => {
        for (const step of ops) {
          if (step.kind === "generate") {
            await generateBills({ ctx, period: PERIODS[step.period] as string });
          } else if (step.kind === "exempt") {
            const type = types[step.type] as (typeof types)[number];
            const unit = unitIds[step.unit] as string;
            const exempt = type.exemptUnitIds.includes(unit)
              ? type.exemptUnitIds.filter((u) => u !== unit)
              : [...type.exemptUnitIds, unit];
            types[step.type] = await updateDuesType({
              ctx,
              id: type.id,
              input: {
                name: type.name,
                amount: type.amount,
                basis: type.basis,
                startPeriod: type.startPeriod,
                active: true,
                exemptUnitIds: exempt,
              },
            });
          } else if (step.kind === "pay" || step.kind === "overpay") {
            const open = await openBills(ctx);
            const bill = open[step.bill % Math.max(open.length, 1)];
            if (!bill) {
              continue;
            }
            const outstanding = bill.amount - bill.paidAmount;
            if (step.kind === "overpay") {
              await expect(
                recordPayment({
                  ctx,
                  id: bill.id,
                  input: { amount: outstanding + 1, method: "tunai", paidAt: "2026-04-02T03:00:00.000Z" },
                }),
              ).rejects.toBeInstanceOf(Conflict);
              continue;
            }
            const amount = Math.max(1, Math.round(outstanding * step.part));
            if (step.online) {
              orders += 1;
              const order = {
                orderId: `prop-${c.tenant.slug}-${orders}`,
                billId: bill.id,
                amount,
                paidAt: "2026-04-03T03:00:00.000Z",
              };
              expect(await applyGatewayPayment(ctx, order)).toEqual({ applied: true });
              if (step.repeat) {
                // A repeated callback of the same order lands nothing.
                expect(await applyGatewayPayment(ctx, order)).toEqual({ applied: false });
              }
            } else {
              await recordPayment({
                ctx,
                id: bill.id,
                input: { amount, method: "transfer", paidAt: "2026-04-02T03:00:00.000Z" },
              });
            }
          } else {
            const standing = await ctx.db
              .select()
              .from(duesPayments)
              .where(and(isNull(duesPayments.reversedAt), eq(duesPayments.method, "transfer")))
              .orderBy(asc(duesPayments.id));
            const payment = standing[step.payment % Math.max(standing.length, 1)];
            if (payment) {
              await reversePayment({ ctx, id: payment.id, input: { reason: "Salah catat tagihan" } });
            }
          }
          expect(await kept(ctx)).toEqual(await recomputed(ctx));
          expect(await keptUnits(ctx)).toEqual(await unitsRecomputed(ctx));
          checked += 1;
        }
        const fromBills = await arrearsFromBills(ctx);
        const read = await arrears({ ctx, now: NOW });
        expect(
          read.items
            .map(({ unitId, owed, unpaidBills, oldestPeriod }) => ({
              unitId,
              owed,
              unpaidBills,
              oldestPeriod,
            }))
            .sort((a, b) => a.unitId.localeCompare(b.unitId)),
        ).toEqual(fromBills);
        expect(read.totals.owed).toBe(fromBills.reduce((sum, r) => sum + r.owed, 0));
        const pages = await everyPage(ctx, 2);
        expect(pages.flatMap((p) => p.items)).toEqual(read.items);
        for (const page of pages) {
          expect(page.totals).toEqual(read.totals);
        }
      }),
      { numRuns: 12 },
    );
    // The property ran real writes, not empty sequences only.
    expect(checked).toBeGreaterThan(12);
    expect((await ctx.db.select().from(duesBills)).length).toBeGreaterThan(0);
  }, 300_000);

  it("backs arrears and the dashboard with the kept rows: a slot written around the verbs shows there", async () => {
    const c = await community();
    const ctx = { ...(await memberCtx(c.tenant.slug, c.bendahara, "bendahara")), now: () => NOW };
    await createDuesType({
      ctx,
      input: { name: "Iuran keamanan", amount: 50_000, basis: "unit", startPeriod: "2026-01", active: true },
    });
    await generateBills({ ctx, period: "2026-03" });
    const before = await arrears({ ctx, now: NOW });
    expect(before.totals.owed).toBe(50_000);
    // Only the kept row moves: if arrears still scanned the bills, it would not see this.
    await ctx.db.update(duesBalances).set({ outstanding: 1 }).where(eq(duesBalances.unitId, c.home.unitId));
    expect((await arrears({ ctx, now: NOW })).totals.owed).toBe(1);
    // The route's page orders and counts by the unit's kept total; if it grouped the slots, not this.
    await ctx.db.update(duesUnitBalances).set({ owed: 7 }).where(eq(duesUnitBalances.unitId, c.home.unitId));
    const page = await arrearsPage({ ctx, now: NOW, input: { limit: 20 } });
    expect([page.items[0]?.owed, page.totals.owed, page.totals.units]).toEqual([7, 7, 1]);
    const dashboard = await callJson<{ indicators: { key: string; value: number }[] }>(
      "/api/statistik/operasional",
      { token: c.admin.token },
    );
    expect(dashboard.status).toBe(200);
    const value = (key: string) => dashboard.body.indicators.find((i) => i.key === key)?.value;
    expect([value("duesArrears"), value("duesArrearsUnits")]).toEqual([1, 1]);
  });
});
