import { and, asc, desc, eq, gt, gte, inArray, lt, lte, or, sql } from "drizzle-orm";
import { unionAll } from "drizzle-orm/sqlite-core";
import type { TenantCtx } from "../../../core/context";
import { rupiah } from "../../../core/format";
import { hasRole, ROLES } from "../../../core/http/access";
import { invalidCursor } from "../../../core/http/cursor";
import { normaliseIndonesianMobile, toMsisdn } from "../../../core/phone";
import { membersWithContact } from "../../identity/service";
import { housesAt } from "../../kependudukan/service";
import { periodOf } from "../periods";
import { duesBalances, duesUnitBalances } from "../tables";
import {
  type BucketEdges,
  type Buckets,
  bucketStarts,
  bucketsSql,
  dueDayQuery,
  monthAt,
  owedThrough,
  owedThroughSql,
} from "./owed";
import type { ArrearsQuery } from "./schemas";

// --- arrears -------------------------------------------------------------------------------------

type Aging = { d0_30: number; d31_60: number; d61_90: number; d90plus: number };

/** The bucket a period's debt ages into; the edges are periods, so the kept row's period decides. */
function bucketOf(period: string, { p30, p60, p90 }: Buckets): keyof Aging {
  return period >= p30 ? "d0_30" : period >= p60 ? "d31_60" : period >= p90 ? "d61_90" : "d90plus";
}

/** A unit's open bills, oldest open period and aging, summed over its kept rows (periods up to now). */
function figures({ p30, p60, p90 }: BucketEdges) {
  const b = duesBalances;
  const out = b.outstanding;
  // Named: D1 keys a row's columns by name, and two unnamed sums of the same text would be one column.
  return {
    unpaidBills: sql<number>`sum(${b.openBills})`.as("unpaid_bills"),
    oldestPeriod: sql<string>`min(${b.period})`.as("oldest_period"),
    d0_30: sql<number>`sum(case when ${b.period} >= ${p30} then ${out} else 0 end)`.as("d0_30"),
    d31_60:
      sql<number>`sum(case when ${b.period} >= ${p60} and ${b.period} < ${p30} then ${out} else 0 end)`.as(
        "d31_60",
      ),
    d61_90:
      sql<number>`sum(case when ${b.period} >= ${p90} and ${b.period} < ${p60} then ${out} else 0 end)`.as(
        "d61_90",
      ),
    d90plus: sql<number>`sum(case when ${b.period} < ${p90} then ${out} else 0 end)`.as("d90plus"),
  };
}

/** Every unit in arrears with its figures, ordered as the arrears list is: owed descending, then unit id. */
function perUnit(ctx: TenantCtx, buckets: Buckets) {
  const b = duesBalances;
  return ctx.db
    .select({ unitId: b.unitId, owed: sql<number>`sum(${b.outstanding})`, ...figures(buckets) })
    .from(b)
    .where(lte(b.period, buckets.current))
    .groupBy(b.unitId)
    .orderBy(desc(sql`sum(${b.outstanding})`), asc(b.unitId));
}

interface UnitRow {
  unitId: string;
  owed: number | null;
  unpaidBills: number;
  oldestPeriod: string;
  d0_30: number;
  d31_60: number;
  d61_90: number;
  d90plus: number;
}

/** Who to remind at a unit: the family head's name, and a number to reach them (or null). */
interface Contact {
  headName: string | null;
  whatsapp: string | null;
}

/** One answer line: the unit's house (block and number, null if the unit is gone) and its figures. */
function present(row: UnitRow, unit: { block: string; number: string } | undefined, contact?: Contact) {
  return {
    unitId: row.unitId,
    block: unit?.block ?? null,
    number: unit?.number ?? null,
    headName: contact?.headName ?? null,
    waLink: null as string | null,
    owed: Number(row.owed),
    unpaidBills: Number(row.unpaidBills),
    oldestPeriod: row.oldestPeriod,
    aging: {
      d0_30: Number(row.d0_30),
      d31_60: Number(row.d31_60),
      d61_90: Number(row.d61_90),
      d90plus: Number(row.d90plus),
    },
  };
}

/**
 * Arrears of every unit as of `now`, for what needs them all (the reminders): what the kept balances
 * (ADR 0028) say is open on periods up to the current one, aged by the days since each period began.
 * The route pages instead (`arrearsPage`).
 */
export async function arrears({ ctx, now = ctx.now() }: { ctx: TenantCtx; now?: Date }) {
  const buckets = bucketStarts(now, (await owedThrough(ctx, now)).through);
  const rows = await perUnit(ctx, buckets);
  const totals = { owed: 0, units: rows.length, aging: { d0_30: 0, d31_60: 0, d61_90: 0, d90plus: 0 } };
  const items = (await lines(ctx, rows)).map((item) => {
    totals.owed += item.owed;
    for (const key of Object.keys(item.aging) as (keyof Aging)[]) {
      totals.aging[key] += item.aging[key];
    }
    return item;
  });
  return { asOf: now.toISOString(), items, totals };
}

/** The cursor of the arrears list: the last unit's owed and id, `250000~01J…` (the keyset lists' format). */
function parseCursor(cursor: string | undefined) {
  if (cursor === undefined) {
    return null;
  }
  const m = /^(\d{1,15})~([^~]+)$/.exec(cursor);
  if (!m) {
    throw invalidCursor();
  }
  return { owed: Number(m[1]), unitId: m[2] as string };
}

/**
 * Each unit's owed as of now (`owing`), their count and sum (`owing_count`), and the page of them after
 * the cursor (`owing_page`), as the common table expressions of the arrears page's statement.
 */
function owingPage(
  ctx: TenantCtx,
  buckets: BucketEdges,
  after: ReturnType<typeof parseCursor>,
  limit: number,
) {
  const db = ctx.db;
  const b = duesBalances;
  const k = duesUnitBalances;
  const billedAhead = db.select({ unitId: k.unitId }).from(k).where(gt(k.newestPeriod, buckets.current));
  // Each unit's owed as of now: its kept total, unless it owes on a period billed ahead (not yet owed),
  // then the sum of its slots up to now. Only those units are grouped from their slots: none most of the
  // month, every unit in the days a treasurer bills the next month early (then it costs what grouping
  // every slot did before the kept totals, no more).
  const owing = db.$with("owing").as(
    unionAll(
      db
        .select({ unitId: k.unitId, owed: sql<number>`${k.owed}`.as("owed") })
        .from(k)
        .where(lte(k.newestPeriod, buckets.current)),
      db
        .select({ unitId: b.unitId, owed: sql<number>`sum(${b.outstanding})`.as("owed") })
        .from(b)
        .where(and(lte(b.period, buckets.current), inArray(b.unitId, billedAhead)))
        .groupBy(b.unitId),
    ),
  );
  const counted = db.$with("owing_count").as(
    db
      .select({
        units: sql<number>`count(*)`.as("units"),
        owed: sql<number>`coalesce(sum(${owing.owed}), 0)`.as("total_owed"),
      })
      .from(owing),
  );
  const page = db.$with("owing_page").as(
    db
      .select({ unitId: owing.unitId, owed: sql<number>`${owing.owed}`.as("page_owed") })
      .from(owing)
      .where(
        after
          ? or(lt(owing.owed, after.owed), and(eq(owing.owed, after.owed), gt(owing.unitId, after.unitId)))
          : undefined,
      )
      .orderBy(desc(owing.owed), asc(owing.unitId))
      .limit(limit + 1),
  );
  return { owing, counted, page };
}

/**
 * The house of each unit (block and number) with its family head (kepala keluarga of the active card
 * at the unit, from the registry) and, `withNumbers`, a WhatsApp number: a resident account of the unit
 * with a number, else the number on the card, normalised to the international digits wa.me takes (null
 * when none reads as a number).
 */
async function housesAndContacts(ctx: TenantCtx, unitIds: readonly string[], withNumbers: boolean) {
  const found = new Map<string, Contact>();
  const [{ units, heads }, members] = await Promise.all([
    housesAt({ ctx, unitIds }),
    // The accounts' numbers only for who is shown them: nobody else needs a read of the platform.
    withNumbers && unitIds.length > 0 ? membersWithContact({ ctx, unitIds }) : [],
  ]);
  const memberNumbers = new Map<string, string>();
  for (const m of members) {
    if (m.unitId && m.whatsapp && !memberNumbers.has(m.unitId)) {
      memberNumbers.set(m.unitId, m.whatsapp);
    }
  }
  for (const unitId of unitIds) {
    const head = heads.get(unitId);
    const raw = memberNumbers.get(unitId) ?? head?.whatsapp ?? null;
    const whatsapp = raw ? (normaliseIndonesianMobile(raw) ?? toMsisdn(raw)) : null;
    found.set(unitId, { headName: head?.name ?? null, whatsapp });
  }
  return { units, contacts: found };
}

/**
 * The answer lines of the given units: house, figures, the family head, and (for the treasurer and admin,
 * who manage finance and so may see numbers, issue 44) a WhatsApp link to remind them.
 */
async function lines(ctx: TenantCtx, rows: readonly UnitRow[]) {
  const seesNumbers = hasRole(ctx, ROLES.FINANCE);
  const { units, contacts } = await housesAndContacts(
    ctx,
    rows.map((r) => r.unitId),
    seesNumbers,
  );
  return rows.map((row) => {
    const contact = contacts.get(row.unitId);
    const item = present(row, units.get(row.unitId), contact);
    item.waLink = seesNumbers && contact?.whatsapp ? reminderLink(ctx, contact, item) : null;
    return item;
  });
}

/** `https://wa.me/<number>?text=…`: a prefilled Indonesian reminder naming the family and the amount. */
function reminderLink(ctx: TenantCtx, contact: Contact, item: { owed: number; oldestPeriod: string }) {
  const greeting = contact.headName ? `Bapak/Ibu ${contact.headName}` : "Bapak/Ibu";
  const text =
    `Halo ${greeting}, kami mengingatkan iuran ${ctx.tenant.name} yang belum dibayar sebesar ` +
    `${rupiah(item.owed)} (sejak ${item.oldestPeriod}). Pembayaran bisa lewat aplikasi: ` +
    `${ctx.config.APP_URL}/iuran. Terima kasih.`;
  return `https://wa.me/${contact.whatsapp}?text=${encodeURIComponent(text)}`;
}

/**
 * `GET /api/iuran/tunggakan`: one page of the arrears as of `now`, owed descending then unit id, with
 * the totals over every unit in arrears. Each unit's owed is its kept total (`dues_unit_balances`), so
 * nothing is grouped but the slots of units that owe on a period billed ahead; the page, the unit count
 * and the sum come from one statement, which also ages the page's units from their slots, beside a
 * read of the last three months' slots for the aging totals. Only the page's houses are then looked
 * up. The cost grows with the units in arrears (a narrow row each), not with the bills ever issued.
 */
export async function arrearsPage({
  ctx,
  input,
  now = ctx.now(),
}: {
  ctx: TenantCtx;
  input: ArrearsQuery;
  now?: Date;
}) {
  // The latest period owed depends on the active types' due day: read in the same batch (`bucketsSql`),
  // not by a call of its own before it.
  const buckets = bucketsSql(now);
  const db = ctx.db;
  const b = duesBalances;
  const { owing, counted, page } = owingPage(ctx, buckets, parseCursor(input.cursor), input.limit);
  // One statement: the count and sum ride on every row of the page (and alone on an empty page), and
  // each page row is joined to its own kept rows for its figures; the aging totals beside it, one batch
  // (one transaction, so the buckets and the total owed they are taken from agree).
  const [[dueDay], ranked, recent, [thisMonth]] = await db.batch([
    dueDayQuery(ctx),
    db
      .with(owing, counted, page)
      .select({
        units: counted.units,
        totalOwed: counted.owed,
        unitId: page.unitId,
        owed: page.owed,
        ...figures(buckets),
      })
      .from(counted)
      .leftJoin(page, sql`1`)
      .leftJoin(b, and(eq(b.unitId, page.unitId), lte(b.period, buckets.current)))
      .groupBy(page.unitId)
      .orderBy(desc(page.owed), asc(page.unitId)),
    // The three recent buckets from the last few periods' slots only (a range of the period index);
    // the oldest bucket is the rest of the total owed.
    db
      .select({ period: b.period, owed: sql<number>`sum(${b.outstanding})` })
      .from(b)
      .where(and(gte(b.period, buckets.p90), lte(b.period, buckets.current)))
      .groupBy(b.period),
    // The current month, shown apart from the arrears (issue 45).
    db
      .select({
        outstanding: sql<number>`coalesce(sum(${b.outstanding}), 0)`,
        units: sql<number>`count(distinct ${b.unitId})`,
      })
      .from(b)
      .where(eq(b.period, periodOf(now))),
  ]);
  const month = monthAt(now, dueDay);
  const edges = bucketStarts(now, month.through);
  const found = ranked.flatMap(({ unitId, ...row }) => (unitId === null ? [] : [{ ...row, unitId }]));
  const shown = found.slice(0, input.limit);
  const items = await lines(ctx, shown);
  const last = items.at(-1);
  const head = ranked[0];
  const owed = Number(head?.totalOwed ?? 0);
  const aging: Aging = { d0_30: 0, d31_60: 0, d61_90: 0, d90plus: 0 };
  for (const row of recent) {
    aging[bucketOf(row.period, edges)] += Number(row.owed);
  }
  aging.d90plus = owed - aging.d0_30 - aging.d31_60 - aging.d61_90;
  return {
    asOf: now.toISOString(),
    items,
    totals: { owed, units: Number(head?.units ?? 0), aging },
    bulanIni: {
      period: month.current,
      dueDate: month.dueDate,
      overdue: month.overdue,
      outstanding: Number(thisMonth?.outstanding ?? 0),
      units: Number(thisMonth?.units ?? 0),
    },
    nextCursor: found.length > input.limit && last ? `${last.owed}~${last.unitId}` : null,
  };
}

/** Dashboard: rupiah owed on bills past their due date (the arrears), from the kept balances (`n`). */
export function arrearsAmountQuery(ctx: TenantCtx) {
  return ctx.db
    .select({ n: sql<number>`coalesce(sum(${duesBalances.outstanding}), 0)` })
    .from(duesBalances)
    .where(lte(duesBalances.period, owedThroughSql(ctx.now())));
}

/** Dashboard: units with something past its due date, from the kept balances (`n`). */
export function arrearsUnitsQuery(ctx: TenantCtx) {
  return ctx.db
    .select({ n: sql<number>`count(distinct ${duesBalances.unitId})` })
    .from(duesBalances)
    .where(lte(duesBalances.period, owedThroughSql(ctx.now())));
}
