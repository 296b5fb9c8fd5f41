import { asc, eq, sql } from "drizzle-orm";
import { audit } from "../../../core/audit";
import type { TenantCtx } from "../../../core/context";
import { newId } from "../../../core/ids";
import { nowIso } from "../../../core/time";
import { billingTargetsQuery } from "../../kependudukan/service";
import { rateFor } from "../periods";
import { financeSettingsOf, financeSettingsQuery } from "../settings";
import { duesBills, duesTypes } from "../tables";
import { refreshPeriod } from "./balances";

// --- generation --------------------------------------------------------------------------------

/** Targets per INSERT … SELECT: the whole list travels as one JSON parameter. */
const GENERATE_CHUNK = 500;

/**
 * Who gets which bill of the period: each active type in force then, with its amount and its targets
 * (the registry's query, `billingTargetsQuery`): the preview counts them and the generation reads them,
 * so the two agree by construction.
 */
async function planBills({ ctx, period }: { ctx: TenantCtx; period: string }) {
  const [types, [settingsRow]] = await ctx.db.batch([
    ctx.db.select().from(duesTypes).where(eq(duesTypes.active, true)),
    financeSettingsQuery(ctx.db),
  ]);
  // An empty house (`kosong`) is not billed per-unit dues unless the community bills its owner.
  const { billEmptyUnits } = financeSettingsOf(settingsRow);
  const plan = types.flatMap((type) => {
    const amount = rateFor(type.rates, period);
    if (type.startPeriod > period || amount === null) {
      return [];
    }
    const targets = billingTargetsQuery(ctx.db, {
      period,
      basis: type.basis,
      includeEmpty: billEmptyUnits,
      exempt: type.exemptUnitIds,
    }).as("targets");
    return [{ type, amount, targets }];
  });
  return { types, plan };
}

/** A non-empty list as the tuple `db.batch` takes. */
function nonEmpty<T>(list: T[]): [T, ...T[]] | null {
  return list.length > 0 ? (list as [T, ...T[]]) : null;
}

/**
 * What generating the period's bills would do, writing nothing: per active type in force then, how many
 * bills it would issue and at what amount, and how many of its targets are already billed. The same
 * plan `generateBills` follows, so the preview's counts are the generation's `created` and `existing`.
 * Counted in SQL, one statement per type in one batch: the targets are never read out (a large RT's
 * 2,000 houses and 5,000 cards).
 */
export async function previewBills({ ctx, period }: { ctx: TenantCtx; period: string }) {
  const { plan } = await planBills({ ctx, period });
  const b = duesBills;
  // Per type: its targets counted, and its bills of the period whose target is still a target. The bills
  // are walked from their (type, period) index, each looked up among the targets by key (EXISTS), so a
  // month not yet billed costs the targets' count alone; a left join of every target to the bills probed
  // the bills' index once per house (about 6 ms of SQL a type over 2,000 houses).
  const statements = nonEmpty(
    plan.map(({ type, targets }) =>
      ctx.db
        .select({
          targets: sql<number>`(select count(*) from ${targets})`,
          existing: sql<number>`(select count(*) from ${b} where ${b.typeId} = ${type.id} and ${b.period} = ${period} and exists (select 1 from ${targets} where ${targets.t} = ${b.targetId}))`,
        })
        .from(duesTypes)
        .where(eq(duesTypes.id, type.id)),
    ),
  );
  const counted = statements ? await ctx.db.batch(statements) : [];
  const types = plan.map(({ type, amount }, i) => {
    const row = counted[i]?.[0];
    const existing = Number(row?.existing ?? 0);
    const bills = Number(row?.targets ?? 0) - existing;
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
  const reads = nonEmpty(
    plan.map(({ targets }) =>
      ctx.db.select({ t: targets.t, u: targets.u, f: targets.f }).from(targets).orderBy(asc(targets.t)),
    ),
  );
  const lists = reads ? await ctx.db.batch(reads) : [];
  const now = nowIso(ctx);
  const statements = [];
  let wanted = 0;
  for (const [i, { type, amount }] of plan.entries()) {
    const list = (lists[i] ?? []).map((item) => ({ id: newId(), ...item }));
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
