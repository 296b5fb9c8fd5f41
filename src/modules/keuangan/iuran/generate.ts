import { eq, sql } from "drizzle-orm";
import { audit } from "../../../core/audit";
import type { TenantCtx } from "../../../core/context";
import { newId } from "../../../core/ids";
import { nowIso } from "../../../core/time";
import { billingTargets } from "../../kependudukan/service";
import { rateFor } from "../periods";
import { loadFinanceSettings } from "../settings";
import { duesBills, duesTypes } from "../tables";
import { refreshPeriod } from "./balances";

// --- generation --------------------------------------------------------------------------------

/** Targets per INSERT … SELECT: the whole list travels as one JSON parameter. */
const GENERATE_CHUNK = 500;

/** Who gets which bill of the period: each active type in force then, with its amount and targets. */
async function planBills({ ctx, period }: { ctx: TenantCtx; period: string }) {
  const [types, targets, settings] = await Promise.all([
    ctx.db.select().from(duesTypes).where(eq(duesTypes.active, true)),
    billingTargets({ ctx, period }),
    loadFinanceSettings(ctx),
  ]);
  // An empty house (`kosong`) is not billed per-unit dues unless the community bills its owner.
  const unitTargets = settings.billEmptyUnits
    ? targets.units
    : targets.units.filter((u) => u.occupancy !== "kosong");
  const plan: {
    type: (typeof types)[number];
    amount: number;
    list: { t: string; u: string; f: string | null }[];
  }[] = [];
  for (const type of types) {
    const amount = rateFor(type.rates, period);
    if (type.startPeriod > period || amount === null) {
      continue;
    }
    const exempt = new Set(type.exemptUnitIds);
    const list =
      type.basis === "unit"
        ? unitTargets.filter((u) => !exempt.has(u.id)).map((u) => ({ t: u.id, u: u.id, f: null }))
        : targets.families
            .filter((f) => !exempt.has(f.unitId))
            .map((f) => ({ t: f.id, u: f.unitId, f: f.id }));
    plan.push({ type, amount, list });
  }
  return { types, plan };
}

/**
 * What generating the period's bills would do, writing nothing: per active type in force then, how many
 * bills it would issue and at what amount, and how many of its targets are already billed. The same
 * plan `generateBills` follows, so the preview's counts are the generation's `created` and `existing`.
 */
export async function previewBills({ ctx, period }: { ctx: TenantCtx; period: string }) {
  const { plan } = await planBills({ ctx, period });
  const billed = await ctx.db
    .select({ typeId: duesBills.typeId, targetId: duesBills.targetId })
    .from(duesBills)
    .where(eq(duesBills.period, period));
  const already = new Set(billed.map((b) => `${b.typeId}|${b.targetId}`));
  const types = plan.map(({ type, amount, list }) => {
    const existing = list.filter((item) => already.has(`${type.id}|${item.t}`)).length;
    const bills = list.length - existing;
    return {
      typeId: type.id,
      name: type.name,
      basis: type.basis,
      amount,
      bills,
      existing,
      total: bills * amount,
    };
  });
  return {
    period,
    bills: types.reduce((sum, t) => sum + t.bills, 0),
    existing: types.reduce((sum, t) => sum + t.existing, 0),
    total: types.reduce((sum, t) => sum + t.total, 0),
    types,
  };
}

/**
 * One bill per unit (or KK) per active type for the period; a unit marked `kosong` gets no per-unit bill
 * unless the finance settings' `billEmptyUnits` says so. Each INSERT takes its targets as one JSON
 * array and skips those already billed through the unique (type, period, target) key, so a second run,
 * or two at once, create nothing twice. The period's kept balances are rewritten in the same batch.
 */
export async function generateBills({ ctx, period }: { ctx: TenantCtx; period: string }) {
  const { types, plan } = await planBills({ ctx, period });
  const now = nowIso(ctx);
  const statements = [];
  let wanted = 0;
  for (const { type, amount, list: targets } of plan) {
    const list = targets.map((item) => ({ id: newId(), ...item }));
    wanted += list.length;
    for (let i = 0; i < list.length; i += GENERATE_CHUNK) {
      const json = JSON.stringify(list.slice(i, i + GENERATE_CHUNK));
      // Every column in table order (drizzle names them all); `WHERE true` keeps SQLite from reading
      // ON CONFLICT as a join constraint.
      statements.push(
        ctx.db
          .insert(duesBills)
          .select(
            sql`SELECT json_extract(value, '$.id'), ${type.id}, ${type.name}, ${period}, ${type.basis},
              json_extract(value, '$.t'), json_extract(value, '$.u'), json_extract(value, '$.f'), NULL,
              ${amount}, 0, 'belum', NULL, ${now}, ${now}
              FROM json_each(${json}) WHERE true`,
          )
          .onConflictDoNothing({ target: [duesBills.typeId, duesBills.period, duesBills.targetId] }),
      );
    }
  }
  if (statements.length === 0) {
    return { period, created: 0, existing: 0 };
  }
  const results = (await ctx.db.batch([
    ...(statements as [(typeof statements)[number], ...typeof statements]),
    ...refreshPeriod(ctx.db, period),
    audit(ctx, {
      action: "iuran.generate",
      targetType: "dues_period",
      targetId: period,
      detail: { types: types.length, targets: wanted },
    }),
  ])) as { meta?: { changes?: number } }[];
  const created = results
    .slice(0, statements.length)
    .reduce((sum, result) => sum + Number(result.meta?.changes ?? 0), 0);
  return { period, created, existing: wanted - created };
}
