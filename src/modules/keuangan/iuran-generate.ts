import { eq, sql } from "drizzle-orm";
import { audit } from "../../core/audit";
import type { TenantCtx } from "../../core/context";
import { newId } from "../../core/ids";
import { nowIso } from "../../core/time";
import { billingTargets } from "../kependudukan/service";
import { refreshPeriod } from "./iuran-balances";
import { rateFor } from "./periods";
import { loadFinanceSettings } from "./settings";
import { duesBills, duesTypes } from "./tables";

// --- generation --------------------------------------------------------------------------------

/** Targets per INSERT … SELECT: the whole list travels as one JSON parameter. */
const GENERATE_CHUNK = 500;

/**
 * One bill per unit (or KK) per active type for the period; a unit marked `kosong` gets no per-unit bill
 * unless the finance settings' `billEmptyUnits` says so. Each INSERT takes its targets as one JSON
 * array and skips those already billed through the unique (type, period, target) key, so a second run,
 * or two at once, create nothing twice. The period's kept balances are rewritten in the same batch.
 */
export async function generateBills({ ctx, period }: { ctx: TenantCtx; period: string }) {
  const [types, targets, settings] = await Promise.all([
    ctx.db.select().from(duesTypes).where(eq(duesTypes.active, true)),
    billingTargets({ ctx, period }),
    loadFinanceSettings(ctx),
  ]);
  // An empty house (`kosong`) is not billed per-unit dues unless the community bills its owner.
  const unitTargets = settings.billEmptyUnits
    ? targets.units
    : targets.units.filter((u) => u.occupancy !== "kosong");
  const now = nowIso();
  const statements = [];
  let wanted = 0;
  for (const type of types) {
    const amount = rateFor(type.rates, period);
    if (type.startPeriod > period || amount === null) {
      continue;
    }
    const exempt = new Set(type.exemptUnitIds);
    const list =
      type.basis === "unit"
        ? unitTargets
            .filter((u) => !exempt.has(u.id))
            .map((u) => ({ id: newId(), t: u.id, u: u.id, f: null }))
        : targets.families
            .filter((f) => !exempt.has(f.unitId))
            .map((f) => ({ id: newId(), t: f.id, u: f.unitId, f: f.id }));
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
