import { asc, desc, lte, sql } from "drizzle-orm";
import type { TenantCtx } from "../../core/context";
import { unitsByIds } from "../kependudukan/service";
import { daysSincePeriodStart, periodOf, previousPeriod } from "./periods";
import { duesBalances } from "./tables";

// --- arrears -------------------------------------------------------------------------------------

/** The oldest period still in each aging bucket (0–30, 31–60, 61–90 days since the period began). */
function bucketStarts(now: Date) {
  const current = periodOf(now);
  const starts: string[] = [];
  for (const limit of [30, 60, 90]) {
    let p = current;
    while (daysSincePeriodStart(previousPeriod(p), now) <= limit) {
      p = previousPeriod(p);
    }
    starts.push(p);
  }
  return { current, p30: starts[0] as string, p60: starts[1] as string, p90: starts[2] as string };
}

/**
 * Arrears per unit as of `now`: what the kept balances (ADR 0028) say is open on periods up to the
 * current one, aged by the days since each period began. One grouped query over the open slots only,
 * so it grows with what is owed, not with the bills ever issued; the bucket edges are periods.
 */
export async function arrears({ ctx, now = ctx.now() }: { ctx: TenantCtx; now?: Date }) {
  const { current, p30, p60, p90 } = bucketStarts(now);
  const b = duesBalances;
  const out = b.outstanding;
  const rows = await ctx.db
    .select({
      unitId: b.unitId,
      owed: sql<number>`sum(${out})`,
      unpaidBills: sql<number>`sum(${b.openBills})`,
      oldestPeriod: sql<string>`min(${b.period})`,
      d0_30: sql<number>`sum(case when ${b.period} >= ${p30} then ${out} else 0 end)`,
      d31_60: sql<number>`sum(case when ${b.period} >= ${p60} and ${b.period} < ${p30} then ${out} else 0 end)`,
      d61_90: sql<number>`sum(case when ${b.period} >= ${p90} and ${b.period} < ${p60} then ${out} else 0 end)`,
      d90plus: sql<number>`sum(case when ${b.period} < ${p90} then ${out} else 0 end)`,
    })
    .from(b)
    .where(lte(b.period, current))
    .groupBy(b.unitId)
    .orderBy(desc(sql`sum(${out})`), asc(b.unitId));
  const units = await unitsByIds({ ctx, ids: rows.map((r) => r.unitId) });
  const totals = { owed: 0, units: rows.length, aging: { d0_30: 0, d31_60: 0, d61_90: 0, d90plus: 0 } };
  const items = rows.map((row) => {
    const aging = {
      d0_30: Number(row.d0_30),
      d31_60: Number(row.d31_60),
      d61_90: Number(row.d61_90),
      d90plus: Number(row.d90plus),
    };
    totals.owed += Number(row.owed);
    for (const key of Object.keys(aging) as (keyof typeof aging)[]) {
      totals.aging[key] += aging[key];
    }
    const unit = units.get(row.unitId);
    return {
      unitId: row.unitId,
      block: unit?.block ?? null,
      number: unit?.number ?? null,
      owed: Number(row.owed),
      unpaidBills: Number(row.unpaidBills),
      oldestPeriod: row.oldestPeriod,
      aging,
    };
  });
  return { asOf: now.toISOString(), items, totals };
}

/** Dashboard: rupiah owed on bills of past and current periods, from the kept balances (`n`). */
export function arrearsAmountQuery(ctx: TenantCtx) {
  return ctx.db
    .select({ n: sql<number>`coalesce(sum(${duesBalances.outstanding}), 0)` })
    .from(duesBalances)
    .where(lte(duesBalances.period, periodOf(ctx.now())));
}

/** Dashboard: units with something owed, from the kept balances (`n`). */
export function arrearsUnitsQuery(ctx: TenantCtx) {
  return ctx.db
    .select({ n: sql<number>`count(distinct ${duesBalances.unitId})` })
    .from(duesBalances)
    .where(lte(duesBalances.period, periodOf(ctx.now())));
}
