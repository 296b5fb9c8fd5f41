import { and, count, eq, gte, lt, or, sql } from "drizzle-orm";
import type { SQLiteColumn } from "drizzle-orm/sqlite-core";
import type { TenantCtx } from "../../core/context";
import { jakartaDay } from "../../core/time";
import {
  familyCards,
  familyMembers,
  RELIGIONS,
  RESIDENCE_STATUSES,
  registryBirthMonths,
  registryCounts,
  unitsBlockCounts,
} from "./tables";

const UNKNOWN = "tidak_diketahui";

/** The usual five-year bands, 0–4 … 70–74, then 75+. */
export const AGE_BANDS = [...Array.from({ length: 15 }, (_, i) => `${i * 5}-${i * 5 + 4}`), "75+"];

/** Registry persons living in the tenant, as one query: the dashboard's "total registered residents". */
export function registryResidentsQuery(ctx: Pick<TenantCtx, "db">) {
  return ctx.db
    .select({ n: sql<number>`coalesce(sum(${familyCards.livingMembers}), 0)` })
    .from(familyCards)
    .where(eq(familyCards.status, "aktif"));
}

function tally(rows: { key: string | null; n: number }[], order?: readonly string[]) {
  const counts = new Map<string, number>();
  for (const row of rows) {
    const key = row.key ?? UNKNOWN;
    counts.set(key, (counts.get(key) ?? 0) + row.n);
  }
  const keys = order
    ? [...order, ...[...counts.keys()].filter((k) => !order.includes(k))]
    : [...counts.keys()].sort();
  return keys.map((key) => ({ key, count: counts.get(key) ?? 0 }));
}

/**
 * The age bands as birth-date bounds on `today` (YYYY-MM-DD): whole years of age are at least 5i exactly
 * when the birth date is on or before today's month and day 5i years back (the YYYYMMDD arithmetic the
 * bands always used), so band i is (today − 5(i+1) years, today − 5i years] and 75+ everything on or
 * before today − 75 years. Band 0 reaches up to five years into the future, as that arithmetic did;
 * later dates and no date are unknown.
 */
function bandBounds(today: string) {
  const year = Number(today.slice(0, 4));
  const back = (years: number) => `${String(year - years).padStart(4, "0")}${today.slice(4)}`;
  return { back, future: back(-5), last: AGE_BANDS.length - 1 };
}

/**
 * The band index of a birth date as one SQL expression: -1 from five years ahead on, then band 0, 1 …
 * down to the last, for everything on or before today − 75 years. Text compared as text, as the
 * birth-date ranges always were.
 */
function bandCase(born: SQLiteColumn, today: string) {
  const { back, future, last } = bandBounds(today);
  const whens = Array.from({ length: last }, (_, i) => sql` when ${born} > ${back(5 * (i + 1))} then ${i}`);
  return sql<number>`case when ${born} >= ${future} then -1${sql.join(whens)} else ${last} end`;
}

/**
 * The months (`YYYY-MM`) that hold a band edge, newest first: five years ahead, then today's month 5i
 * years back for i = 1 … 15. A birth date outside them lies wholly inside one band (a month strictly
 * between two edge months, as text, is strictly between the two edges); one inside them is counted by
 * its own date. `after` is the first text past every date of the month (its last character moved up).
 */
function edgeMonths(today: string) {
  const { back } = bandBounds(today);
  return AGE_BANDS.map((_, i) => {
    const month = back(i === 0 ? -5 : 5 * i).slice(0, 7);
    return { month, after: `${month.slice(0, 6)}${String.fromCharCode(month.charCodeAt(6) + 1)}` };
  });
}

/**
 * Living persons of active cards per age band, in two reads that do not grow with the registry:
 * - per band, the sum of the kept birth months strictly between its two edge months, a range of
 *   `registry_birth_months`' primary key (aliased columns: D1 names a column by its text, and the
 *   bands' texts differ only in their parameters);
 * - the persons born in the sixteen edge months, a month of births each on the birth-date index, with
 *   their card's status, banded by their own date. The cross join keeps SQLite walking those ranges first.
 */
function bandCounts(db: TenantCtx["db"], today: string) {
  const edges = edgeMonths(today);
  const month = registryBirthMonths.birthMonth;
  const sums = AGE_BANDS.map((_, i) => {
    const below = edges[i + 1];
    const range = below
      ? sql`${month} < ${edges[i]?.month} and ${month} > ${below.month}`
      : sql`${month} < ${edges[i]?.month}`;
    return [
      `band${i}`,
      sql<number>`(select coalesce(sum(${registryBirthMonths.persons}), 0) from ${registryBirthMonths} where ${range})`.as(
        `band${i}`,
      ),
    ] as const;
  });
  const born = familyMembers.birthDate;
  const edgeBirths = db
    .select({ band: bandCase(born, today).as("band"), n: count() })
    .from(familyMembers)
    .crossJoin(familyCards)
    .where(
      and(
        eq(familyCards.id, familyMembers.familyCardId),
        eq(familyCards.status, "aktif"),
        eq(familyMembers.livingStatus, "hidup"),
        or(...edges.map((e) => and(gte(born, e.month), lt(born, e.after)))),
      ),
    )
    .groupBy(sql`1`);
  return [db.select(Object.fromEntries(sums)).from(sql`(select 1)`), edgeBirths] as const;
}

/**
 * The aggregates in one D1 batch, none of them a pass over the cards or the persons (issue 32):
 * - active cards per block with their kept living members and vehicles summed (`units_block_counts`,
 *   a row per block);
 * - members of active cards by living status, sex, religion and residence: the kept tally
 *   (`registry_counts`, a few dozen rows whatever the registry's size);
 * - living members of active cards per age band (`bandCounts`).
 */
function registryAggregates(db: TenantCtx["db"], today: string) {
  const [wholeMonths, edgeBirths] = bandCounts(db, today);
  return db.batch([
    db.select().from(unitsBlockCounts),
    db
      .select({
        living: registryCounts.livingStatus,
        sex: registryCounts.sex,
        religion: registryCounts.religion,
        residence: registryCounts.residenceStatus,
        n: registryCounts.persons,
      })
      .from(registryCounts),
    wholeMonths,
    edgeBirths,
  ]);
}

type Aggregates = Awaited<ReturnType<typeof registryAggregates>>;

/** One collator per isolate: `localeCompare` with a locale builds one per comparison (~1.7 ms a sort). */
const blockOrder = new Intl.Collator("id", { numeric: true });

/** Blocks in natural order ("A2" before "A10"), each with its families, living persons and vehicles. */
function perBlock(blocks: Aggregates[0]) {
  return blocks
    .map((r) => ({ block: r.block, families: r.families, persons: r.persons, vehicles: r.vehicles }))
    .sort((a, b) => blockOrder.compare(a.block, b.block));
}

/**
 * Living persons of active cards by sex, religion, residence (the tally's `''` is none, an unknown
 * like any key not listed) and age band, and the deceased members of active cards.
 */
function breakdowns(groups: Aggregates[1], bandRows: { band: number; n: number }[]) {
  const sex = new Map<string, number>();
  const religion = new Map<string | null, number>();
  const residence = new Map<string | null, number>();
  const age = new Map<number, number>(AGE_BANDS.map((_, i) => [i, 0]));
  const add = <K>(map: Map<K, number>, key: K, n: number) => map.set(key, (map.get(key) ?? 0) + n);
  let deceased = 0;
  for (const g of groups) {
    if (g.living === "hidup") {
      add(sex, g.sex, g.n);
      add(religion, g.religion, g.n);
      add(residence, g.residence, g.n);
    } else if (g.living === "meninggal") {
      deceased += g.n;
    }
  }
  for (const r of bandRows) {
    add(age, Number(r.band), Number(r.n));
  }
  return { sex, religion, residence, age, deceased };
}

/**
 * The registry in numbers, in one D1 batch that never reads every card or person (issue 32), from what
 * the database's triggers keep: the active cards per block with their living members and vehicles
 * (`units_block_counts`, migration 0022, summing the counts each card keeps), and the members of active
 * cards by living status, sex, religion and residence and the living ones per birth month
 * (`registry_counts`, `registry_birth_months`, migration 0019). The age bands are birth-date ranges on
 * today's Jakarta date: whole months from the tally, the months of the band edges person by person.
 * Persons (and every breakdown but living status) are members alive on an active card; living status
 * counts every member of an active card.
 */
export async function registryStatistics({ ctx }: { ctx: TenantCtx }) {
  const today = jakartaDay(ctx.now());
  const [blocks, groups, wholeMonths, edgeBirths] = await registryAggregates(ctx.db, today);
  const totalPersons = blocks.reduce((sum, r) => sum + r.persons, 0);
  const sums = AGE_BANDS.map((_, band) => ({ band, n: Number(wholeMonths[0]?.[`band${band}`] ?? 0) }));
  const by = breakdowns(groups, [...sums, ...edgeBirths]);
  const known = (map: Map<string | null, number>, keys: readonly string[]) => {
    const rows = keys.map((key) => ({ key, n: map.get(key) ?? 0 }));
    return [...rows, { key: UNKNOWN, n: totalPersons - rows.reduce((sum, r) => sum + r.n, 0) }];
  };
  const ages = [...by.age].flatMap(([i, n]) => (i < 0 ? [] : [{ key: AGE_BANDS[i] ?? "75+", n }]));
  const bandTotal = ages.reduce((sum, r) => sum + r.n, 0);
  return {
    totalFamilies: blocks.reduce((sum, r) => sum + r.families, 0),
    totalPersons,
    totalVehicles: blocks.reduce((sum, r) => sum + r.vehicles, 0),
    perBlock: perBlock(blocks),
    sex: tally(
      [
        { key: "L", n: by.sex.get("L") ?? 0 },
        { key: "P", n: by.sex.get("P") ?? 0 },
      ],
      ["L", "P"],
    ),
    ageGroups: tally([...ages, { key: UNKNOWN, n: totalPersons - bandTotal }], [...AGE_BANDS, UNKNOWN]),
    religion: tally(known(by.religion, RELIGIONS).filter((r) => r.n > 0)),
    residenceStatus: tally(known(by.residence, RESIDENCE_STATUSES), ["tetap", "kontrak", "kos", UNKNOWN]),
    livingStatus: tally(
      [
        { key: "hidup", n: totalPersons },
        { key: "meninggal", n: by.deceased },
      ],
      ["hidup", "meninggal"],
    ),
  };
}
