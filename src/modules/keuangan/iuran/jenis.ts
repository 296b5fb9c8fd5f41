import { asc, eq } from "drizzle-orm";
import { audit } from "../../../core/audit";
import type { TenantCtx } from "../../../core/context";
import { rowByIdOrNotFound } from "../../../core/db/rows";
import { Conflict, Invalid } from "../../../core/errors";
import { newId } from "../../../core/ids";
import { nowIso } from "../../../core/time";
import { unitsByIds } from "../../kependudukan/service";
import { DEFAULT_DUE_DAY, nextPeriod, periodOf, rateFor } from "../periods";
import { type DuesRate, duesBills, duesTypes } from "../tables";
import type { DuesTypeInput } from "./schemas";

type TypeRow = typeof duesTypes.$inferSelect;

// --- dues types --------------------------------------------------------------------------------

function presentType(row: TypeRow, now: Date) {
  const current = periodOf(now);
  const next = rateFor(row.rates, nextPeriod(current));
  const amount = rateFor(row.rates, current) ?? row.rates[0]?.amount ?? 0;
  return {
    id: row.id,
    name: row.name,
    amount,
    nextAmount: next !== null && next !== amount ? next : null,
    basis: row.basis,
    startPeriod: row.startPeriod,
    active: row.active,
    exemptUnitIds: row.exemptUnitIds,
    dueDay: row.dueDay,
    rates: row.rates,
    createdAt: row.createdAt,
    updatedAt: row.updatedAt,
  };
}

export async function listDuesTypes({ ctx }: { ctx: TenantCtx }) {
  const rows = await ctx.db.select().from(duesTypes).orderBy(asc(duesTypes.id));
  return { items: rows.map((row) => presentType(row, ctx.now())) };
}

async function checkUnits(ctx: TenantCtx, ids: readonly string[] | undefined) {
  if (!ids?.length) {
    return [];
  }
  const found = await unitsByIds({ ctx, ids });
  const unknown = ids.filter((id) => !found.has(id));
  if (unknown.length) {
    throw new Invalid("unit_not_found", "Some exempt units are not in the registry.", [
      { field: "exemptUnitIds", message: `unknown: ${unknown.slice(0, 5).join(", ")}` },
    ]);
  }
  return [...new Set(ids)];
}

export async function createDuesType({ ctx, input }: { ctx: TenantCtx; input: DuesTypeInput }) {
  const exemptUnitIds = await checkUnits(ctx, input.exemptUnitIds);
  const id = newId();
  await ctx.db.batch([
    ctx.db.insert(duesTypes).values({
      id,
      name: input.name,
      basis: input.basis,
      startPeriod: input.startPeriod,
      active: input.active,
      rates: [{ from: input.startPeriod, amount: input.amount }],
      exemptUnitIds,
      dueDay: input.dueDay ?? DEFAULT_DUE_DAY,
      updatedAt: nowIso(ctx),
    }),
    audit(ctx, {
      action: "iuran.jenis.create",
      targetType: "dues_type",
      targetId: id,
      detail: { name: input.name, amount: input.amount, basis: input.basis },
    }),
  ]);
  return presentType(await loadType(ctx, id), ctx.now());
}

async function loadType(ctx: TenantCtx, id: string): Promise<TypeRow> {
  return rowByIdOrNotFound(ctx.db, duesTypes, id, "Dues type");
}

/**
 * A changed amount applies from the next period (or from the start, for a type that has not started
 * yet): bills already issued keep theirs, and the current period's bills, generated late, too.
 */
export function withAmount(rates: readonly DuesRate[], amount: number, startPeriod: string, now: Date) {
  const from = [nextPeriod(periodOf(now)), startPeriod].sort().at(-1) as string;
  if (rateFor(rates, from) === amount) {
    return [...rates];
  }
  return [...rates.filter((r) => r.from < from), { from, amount }];
}

export async function updateDuesType({
  ctx,
  id,
  input,
}: {
  ctx: TenantCtx;
  id: string;
  input: DuesTypeInput;
}) {
  const current = await loadType(ctx, id);
  if (input.basis !== current.basis) {
    const issued = await ctx.db.$count(duesBills, eq(duesBills.typeId, id));
    if (issued > 0) {
      throw new Conflict("invalid_transition", "The basis of a type that has issued bills cannot change.");
    }
  }
  const exemptUnitIds = await checkUnits(ctx, input.exemptUnitIds ?? current.exemptUnitIds);
  const now = ctx.now();
  const rates =
    input.startPeriod !== current.startPeriod && current.startPeriod > periodOf(now)
      ? [{ from: input.startPeriod, amount: input.amount }]
      : withAmount(current.rates, input.amount, input.startPeriod, now);
  await ctx.db.batch([
    ctx.db
      .update(duesTypes)
      .set({
        name: input.name,
        basis: input.basis,
        startPeriod: input.startPeriod,
        active: input.active,
        rates,
        exemptUnitIds,
        dueDay: input.dueDay ?? current.dueDay,
        updatedAt: now.toISOString(),
      })
      .where(eq(duesTypes.id, id)),
    audit(ctx, {
      action: "iuran.jenis.update",
      targetType: "dues_type",
      targetId: id,
      detail: { amount: input.amount, active: input.active, rates },
    }),
  ]);
  return presentType(await loadType(ctx, id), ctx.now());
}
