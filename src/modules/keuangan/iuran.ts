import { and, asc, desc, eq, getTableColumns, inArray, lte, ne, type SQL, sql } from "drizzle-orm";
import { audit } from "../../core/audit";
import type { TenantCtx } from "../../core/context";
import { abortBatchUnless, isBatchAborted, isUniqueViolation } from "../../core/db/errors";
import { afterCursor, keysetPage } from "../../core/db/paging";
import { rowByIdOrNotFound } from "../../core/db/rows";
import { Conflict, Invalid } from "../../core/errors";
import { requireUser } from "../../core/http/access";
import { newId } from "../../core/ids";
import { jakartaDay, nowIso } from "../../core/time";
import { requireTenantFile, tenantFileUrl } from "../../core/uploads";
import { requireCompleteProfile } from "../identity/service";
import { billingTargets, unitsByIds } from "../kependudukan/service";
import { postCash } from "./kas";
import { daysSincePeriodStart, nextPeriod, periodOf, previousPeriod, rateFor } from "./periods";
import type { BillListQuery, DuesTypeInput, PaymentInput } from "./schemas";
import { type DuesRate, duesBills, duesPayments, duesTypes } from "./tables";

type TypeRow = typeof duesTypes.$inferSelect;
export type BillRow = typeof duesBills.$inferSelect;

// --- dues types --------------------------------------------------------------------------------

function presentType(row: TypeRow, now = new Date()) {
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
    rates: row.rates,
    createdAt: row.createdAt,
    updatedAt: row.updatedAt,
  };
}

export async function listDuesTypes({ ctx }: { ctx: TenantCtx }) {
  const rows = await ctx.db.select().from(duesTypes).orderBy(asc(duesTypes.id));
  return { items: rows.map((row) => presentType(row)) };
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
      updatedAt: nowIso(),
    }),
    audit(ctx, {
      action: "iuran.jenis.create",
      targetType: "dues_type",
      targetId: id,
      detail: { name: input.name, amount: input.amount, basis: input.basis },
    }),
  ]);
  return presentType(await loadType(ctx, id));
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
  const now = new Date();
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
  return presentType(await loadType(ctx, id));
}

// --- generation --------------------------------------------------------------------------------

/** Targets per INSERT … SELECT: the whole list travels as one JSON parameter. */
const GENERATE_CHUNK = 500;

/**
 * One bill per unit (or KK) per active type for the period. Each INSERT takes its targets as one JSON
 * array and skips those already billed through the unique (type, period, target) key, so a second run,
 * or two at once, create nothing twice.
 */
export async function generateBills({ ctx, period }: { ctx: TenantCtx; period: string }) {
  const [types, targets] = await Promise.all([
    ctx.db.select().from(duesTypes).where(eq(duesTypes.active, true)),
    billingTargets({ ctx, period }),
  ]);
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
        ? targets.units
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
              json_extract(value, '$.t'), json_extract(value, '$.u'), json_extract(value, '$.f'),
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

// --- bills ---------------------------------------------------------------------------------------

export function presentBill(row: BillRow) {
  return {
    id: row.id,
    typeId: row.typeId,
    typeName: row.typeName,
    period: row.period,
    basis: row.basis,
    unitId: row.unitId,
    familyId: row.familyId,
    amount: row.amount,
    paidAmount: row.paidAmount,
    outstanding: row.amount - row.paidAmount,
    status: row.status,
    createdAt: row.createdAt,
  };
}

export type PaymentRow = typeof duesPayments.$inferSelect;

/** A payment as finance sees it, with its reversal once there is one. */
export function presentPayment(ctx: TenantCtx, row: PaymentRow) {
  return {
    id: row.id,
    amount: row.amount,
    method: row.method,
    paidAt: row.paidAt,
    proofUrl: row.proofFileId ? tenantFileUrl(ctx, row.proofFileId) : null,
    cashEntryId: row.cashEntryId,
    reversal:
      row.reversedAt && row.reversalEntryId
        ? {
            at: row.reversedAt,
            by: row.reversedBy,
            reason: row.reversalReason ?? "",
            cashEntryId: row.reversalEntryId,
          }
        : null,
  };
}

/** The staff list: bills with their payments (reversed ones included and marked), oldest payment first. */
export async function listBills({ ctx, input }: { ctx: TenantCtx; input: BillListQuery }) {
  const filters: SQL[] = [
    ...afterCursor(duesBills.id, input.cursor, "asc"),
    ...(input.period ? [eq(duesBills.period, input.period)] : []),
    ...(input.status ? [eq(duesBills.status, input.status)] : []),
    ...(input.unitId ? [eq(duesBills.unitId, input.unitId)] : []),
  ];
  // One round trip per page (issue 18): each bill's payments ride along as a JSON array of rows, in id
  // order, built by a correlated subquery over the bill index. Table names are spelled out: inside a
  // select's fields drizzle writes a column as its bare name, which the subquery would take as its own.
  const rows = await ctx.db
    .select({
      ...getTableColumns(duesBills),
      payments: sql<string>`(SELECT json_group_array(json(p.row)) FROM (
        SELECT json_object('id', id, 'billId', bill_id, 'amount', amount, 'method', method,
          'paidAt', paid_at, 'gatewayOrderId', gateway_order_id, 'proofFileId', proof_file_id,
          'cashEntryId', cash_entry_id, 'recordedBy', recorded_by, 'reversedAt', reversed_at,
          'reversedBy', reversed_by, 'reversalReason', reversal_reason,
          'reversalEntryId', reversal_entry_id, 'createdAt', created_at) AS row
        FROM dues_payments WHERE bill_id = dues_bills.id ORDER BY id) AS p)`,
    })
    .from(duesBills)
    .where(and(...filters))
    .orderBy(asc(duesBills.id))
    .limit(input.limit + 1);
  const page = keysetPage(rows, input.limit);
  return {
    items: page.items.map(({ payments, ...bill }) => ({
      ...presentBill(bill),
      payments: (JSON.parse(payments) as PaymentRow[]).map((payment) => presentPayment(ctx, payment)),
    })),
    nextCursor: page.nextCursor,
  };
}

export async function loadBill(ctx: Pick<TenantCtx, "db">, id: string): Promise<BillRow> {
  return rowByIdOrNotFound(ctx.db, duesBills, id, "Bill");
}

// --- payments ----------------------------------------------------------------------------------

export interface PaymentFacts {
  amount: number;
  method: "tunai" | "transfer" | "online";
  paidAt: string;
  gatewayOrderId?: string;
  proofFileId?: string;
}

/**
 * Records a payment: the bill's paid amount moves by a conditional UPDATE that refuses to pass the
 * bill's amount, the guard stops the batch unless that UPDATE was this payment's, and the payment row
 * and its cash-book entry land in the same batch. Two payments racing for the last rupiah: one wins,
 * the other is 409 `overpayment` (or `bill_paid`).
 */
export async function applyPayment(ctx: TenantCtx, bill: BillRow, facts: PaymentFacts) {
  if (bill.status === "lunas") {
    throw new Conflict("bill_paid", "This bill is already paid in full.");
  }
  if (bill.paidAmount + facts.amount > bill.amount) {
    throw new Conflict(
      "overpayment",
      `Only Rp${bill.amount - bill.paidAmount} is outstanding on this bill; the payment would exceed it.`,
    );
  }
  const paymentId = newId();
  const entry = postCash(ctx, {
    kind: "masuk",
    category: bill.typeName,
    amount: facts.amount,
    date: jakartaDay(facts.paidAt),
    note: `Iuran ${bill.typeName} ${bill.period}${facts.method === "online" ? " (online)" : ""}`,
    source: "iuran",
    sourceId: paymentId,
  });
  const now = nowIso();
  try {
    await ctx.db.batch([
      ctx.db
        .update(duesBills)
        .set({
          paidAmount: sql`${duesBills.paidAmount} + ${facts.amount}`,
          status: sql`CASE WHEN ${duesBills.paidAmount} + ${facts.amount} >= ${duesBills.amount} THEN 'lunas' ELSE 'sebagian' END`,
          lastPaymentId: paymentId,
          updatedAt: now,
        })
        .where(
          and(
            eq(duesBills.id, bill.id),
            sql`${duesBills.paidAmount} + ${facts.amount} <= ${duesBills.amount}`,
          ),
        ),
      abortBatchUnless(ctx.db, duesBills, bill.id, eq(duesBills.lastPaymentId, paymentId)),
      ctx.db.insert(duesPayments).values({
        id: paymentId,
        billId: bill.id,
        amount: facts.amount,
        method: facts.method,
        paidAt: new Date(facts.paidAt).toISOString(),
        gatewayOrderId: facts.gatewayOrderId ?? null,
        proofFileId: facts.proofFileId ?? null,
        cashEntryId: entry.id,
        recordedBy: ctx.actor.kind === "user" ? ctx.actor.userId : null,
      }),
      entry.insert,
      audit(ctx, {
        action: "iuran.payment",
        targetType: "dues_bill",
        targetId: bill.id,
        detail: { paymentId, amount: facts.amount, method: facts.method, cashEntryId: entry.id },
      }),
    ]);
  } catch (error) {
    if (isBatchAborted(error)) {
      const fresh = await loadBill(ctx, bill.id);
      throw fresh.status === "lunas"
        ? new Conflict("bill_paid", "This bill was paid in full meanwhile.")
        : new Conflict("overpayment", "Another payment arrived meanwhile; this one would exceed the bill.");
    }
    throw error;
  }
  const after = await loadBill(ctx, bill.id);
  return {
    id: paymentId,
    billId: bill.id,
    amount: facts.amount,
    method: facts.method,
    paidAt: new Date(facts.paidAt).toISOString(),
    proofUrl: facts.proofFileId ? tenantFileUrl(ctx, facts.proofFileId) : null,
    cashEntryId: entry.id,
    reversal: null,
    bill: presentBill(after),
  };
}

export async function recordPayment({ ctx, id, input }: { ctx: TenantCtx; id: string; input: PaymentInput }) {
  requireUser(ctx);
  if (new Date(input.paidAt).getTime() > Date.now() + 5 * 60_000) {
    throw new Invalid("invalid_date", "paidAt must not be in the future.", [
      { field: "paidAt", message: "in the future" },
    ]);
  }
  const bill = await loadBill(ctx, id);
  if (input.proofFileId) {
    await requireTenantFile(ctx, input.proofFileId, { purposes: ["bukti_bayar"], field: "proofFileId" });
  }
  return applyPayment(ctx, bill, input);
}

/**
 * A paid gateway order for a bill: applied once. The unique order id on the payment makes a repeated
 * callback a no-op (`applied: false`), and a bill already paid is never moved back.
 */
export async function applyGatewayPayment(
  ctx: TenantCtx,
  order: { orderId: string; billId: string; amount: number; paidAt: string },
): Promise<{ applied: boolean }> {
  const seen = await ctx.db
    .select({ id: duesPayments.id })
    .from(duesPayments)
    .where(eq(duesPayments.gatewayOrderId, order.orderId))
    .get();
  if (seen) {
    return { applied: false };
  }
  try {
    await applyPayment(ctx, await loadBill(ctx, order.billId), {
      amount: order.amount,
      method: "online",
      paidAt: order.paidAt,
      gatewayOrderId: order.orderId,
    });
    return { applied: true };
  } catch (error) {
    if (isUniqueViolation(error, "dues_payments.gateway_order_id")) {
      return { applied: false };
    }
    throw error;
  }
}

// --- the resident's own dues -------------------------------------------------------------------

/** How many settled bills the resident's view shows after the unpaid ones. */
const PAID_SHOWN = 12;

async function duesOfUnit(ctx: TenantCtx, unitId: string) {
  const [unpaid, paid, [totals]] = await ctx.db.batch([
    ctx.db
      .select()
      .from(duesBills)
      .where(and(eq(duesBills.unitId, unitId), ne(duesBills.status, "lunas")))
      .orderBy(asc(duesBills.period), asc(duesBills.id)),
    ctx.db
      .select()
      .from(duesBills)
      .where(and(eq(duesBills.unitId, unitId), eq(duesBills.status, "lunas")))
      .orderBy(desc(duesBills.period), desc(duesBills.id))
      .limit(PAID_SHOWN),
    ctx.db
      .select({
        billed: sql<number>`coalesce(sum(${duesBills.amount}), 0)`,
        paid: sql<number>`coalesce(sum(${duesBills.paidAmount}), 0)`,
      })
      .from(duesBills)
      .where(eq(duesBills.unitId, unitId)),
  ]);
  const billed = Number(totals?.billed ?? 0);
  const paidSum = Number(totals?.paid ?? 0);
  return {
    unitId,
    items: [...unpaid, ...paid].map(presentBill),
    totals: { billed, paid: paidSum, outstanding: billed - paidSum, unpaidBills: unpaid.length },
  };
}

/** The caller's household's bills, unpaid first, with totals; 409 `profile_incomplete` without a unit. */
export async function myDues({ ctx }: { ctx: TenantCtx }) {
  const { unitId } = await requireCompleteProfile({ ctx });
  return duesOfUnit(ctx, unitId);
}

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
 * Arrears per unit as of `now`: every bill of a period up to the current one that is not paid in full,
 * aged by the days since its period began. One grouped query; the bucket edges are periods.
 */
export async function arrears({ ctx, now = new Date() }: { ctx: TenantCtx; now?: Date }) {
  const { current, p30, p60, p90 } = bucketStarts(now);
  const out = sql<number>`${duesBills.amount} - ${duesBills.paidAmount}`;
  const rows = await ctx.db
    .select({
      unitId: duesBills.unitId,
      owed: sql<number>`sum(${out})`,
      unpaidBills: sql<number>`count(*)`,
      oldestPeriod: sql<string>`min(${duesBills.period})`,
      d0_30: sql<number>`sum(case when ${duesBills.period} >= ${p30} then ${out} else 0 end)`,
      d31_60: sql<number>`sum(case when ${duesBills.period} >= ${p60} and ${duesBills.period} < ${p30} then ${out} else 0 end)`,
      d61_90: sql<number>`sum(case when ${duesBills.period} >= ${p90} and ${duesBills.period} < ${p60} then ${out} else 0 end)`,
      d90plus: sql<number>`sum(case when ${duesBills.period} < ${p90} then ${out} else 0 end)`,
    })
    .from(duesBills)
    .where(and(inArray(duesBills.status, ["belum", "sebagian"]), lte(duesBills.period, current)))
    .groupBy(duesBills.unitId)
    .orderBy(desc(sql`sum(${out})`), asc(duesBills.unitId));
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

/** Dashboard: rupiah owed on bills of past and current periods, as one query (`n`). */
export function arrearsAmountQuery(ctx: TenantCtx) {
  return ctx.db
    .select({ n: sql<number>`coalesce(sum(${duesBills.amount} - ${duesBills.paidAmount}), 0)` })
    .from(duesBills)
    .where(
      and(inArray(duesBills.status, ["belum", "sebagian"]), lte(duesBills.period, periodOf(new Date()))),
    );
}

/** Dashboard: units with something owed, as one query (`n`). */
export function arrearsUnitsQuery(ctx: TenantCtx) {
  return ctx.db
    .select({ n: sql<number>`count(distinct ${duesBills.unitId})` })
    .from(duesBills)
    .where(
      and(inArray(duesBills.status, ["belum", "sebagian"]), lte(duesBills.period, periodOf(new Date()))),
    );
}

export { duesOfUnit };
