import { count, eq, inArray, sql } from "drizzle-orm";
import type { TenantCtx } from "../../core/context";
import { jakartaDay } from "../../core/time";
import { familyCards, familyMembers, KK_STATUSES, RELIGIONS, RESIDENCE_STATUSES, units } from "./tables";

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

/** The band index of one birth date (-1 for unknown), by the same bounds as `bandCounts`. */
function bandOf(birthDate: string | null, today: string): number {
  const { back, future, last } = bandBounds(today);
  if (birthDate === null || birthDate >= future) {
    return -1;
  }
  for (let i = 0; i < last; i++) {
    if (birthDate > back(5 * (i + 1))) {
      return i;
    }
  }
  return last;
}

/**
 * One row of one count per band, each a range of the birth-date index. Aliased columns: D1 names a
 * column by its text, and the bands' texts differ only in their parameters.
 */
function bandCounts(db: TenantCtx["db"], today: string) {
  const { back, future, last } = bandBounds(today);
  const born = familyMembers.birthDate;
  const counts = AGE_BANDS.map((_, i) => {
    const range =
      i === last
        ? sql`${born} <= ${back(5 * i)}`
        : i === 0
          ? sql`${born} > ${back(5)} and ${born} < ${future}`
          : sql`${born} > ${back(5 * (i + 1))} and ${born} <= ${back(5 * i)}`;
    return [
      `band${i}`,
      sql<number>`(select count(*) from ${familyMembers} where ${familyMembers.livingStatus} = 'hidup' and ${range})`.as(
        `band${i}`,
      ),
    ] as const;
  });
  return db.select(Object.fromEntries(counts)).from(sql`(select 1)`);
}

/**
 * The aggregates in one D1 batch, none of them a pass that joins every person (issue 32):
 * - active cards per block with their kept counts of living members and vehicles (the card's own
 *   columns, kept by triggers): one pass over the active cards on an index that holds them;
 * - persons by sex, religion, residence and living status, grouped on an index that holds those columns,
 *   and per age band one count of the living per birth-date range on the birth-date index: over every card,
 *   so the members of cards that are not active (moved out, no longer counted), read through the status
 *   index, are then taken off in the isolate.
 */
function registryAggregates(db: TenantCtx["db"], today: string) {
  return db.batch([
    db
      .select({
        block: units.block,
        families: count(),
        persons: sql<number>`coalesce(sum(${familyCards.livingMembers}), 0)`,
        vehicles: sql<number>`coalesce(sum(${familyCards.vehicleCount}), 0)`,
      })
      .from(familyCards)
      .innerJoin(units, eq(units.id, familyCards.unitId))
      .where(eq(familyCards.status, "aktif"))
      .groupBy(units.block),
    db
      .select({
        sex: familyMembers.sex,
        religion: familyMembers.religion,
        residence: familyMembers.residenceStatus,
        living: familyMembers.livingStatus,
        n: count(),
      })
      .from(familyMembers)
      .groupBy(
        familyMembers.sex,
        familyMembers.religion,
        familyMembers.residenceStatus,
        familyMembers.livingStatus,
      ),
    bandCounts(db, today),
    db
      .select({
        living: familyMembers.livingStatus,
        sex: familyMembers.sex,
        religion: familyMembers.religion,
        residence: familyMembers.residenceStatus,
        birthDate: familyMembers.birthDate,
      })
      .from(familyCards)
      .innerJoin(familyMembers, eq(familyMembers.familyCardId, familyCards.id))
      .where(
        inArray(
          familyCards.status,
          KK_STATUSES.filter((st) => st !== "aktif"),
        ),
      ),
  ]);
}

type Aggregates = Awaited<ReturnType<typeof registryAggregates>>;

/** One collator per isolate: `localeCompare` with a locale builds one per comparison (~1.7 ms a sort). */
const blockOrder = new Intl.Collator("id", { numeric: true });

/** Blocks in natural order ("A2" before "A10"), each with its families, living persons and vehicles. */
function perBlock(blocks: Aggregates[0]) {
  return blocks
    .flatMap((r) =>
      r.block === null
        ? []
        : [
            {
              block: r.block,
              families: r.families,
              persons: Number(r.persons),
              vehicles: Number(r.vehicles),
            },
          ],
    )
    .sort((a, b) => blockOrder.compare(a.block, b.block));
}

/**
 * Living persons by sex, religion, residence and age band on active cards: the counts over every card,
 * less the living members of cards that are not active.
 */
function breakdowns(groups: Aggregates[1], bands: Aggregates[2], inactive: Aggregates[3], today: string) {
  const sex = new Map<string, number>();
  const religion = new Map<string | null, number>();
  const residence = new Map<string | null, number>();
  const age = new Map<number, number>(AGE_BANDS.map((_, i) => [i, Number(bands[0]?.[`band${i}`] ?? 0)]));
  const add = <K>(map: Map<K, number>, key: K, n: number) => map.set(key, (map.get(key) ?? 0) + n);
  for (const g of groups.filter((row) => row.living === "hidup")) {
    add(sex, g.sex, g.n);
    add(religion, g.religion, g.n);
    add(residence, g.residence, g.n);
  }
  for (const m of inactive.filter((row) => row.living === "hidup")) {
    add(sex, m.sex, -1);
    add(religion, m.religion, -1);
    add(residence, m.residence, -1);
    add(age, bandOf(m.birthDate, today), -1);
  }
  return { sex, religion, residence, age };
}

/**
 * The registry in numbers, in one D1 batch that never joins every person (issue 32): the active cards
 * per block with the living members and vehicles each card keeps (triggers keep the counts, like the
 * search text), and living persons by sex, religion, residence and age band counted on indexes that
 * hold those columns, less the members of cards no longer active. The age bands are birth-date ranges
 * on today's Jakarta date. Persons (and every breakdown but living status) are members alive on an
 * active card; living status counts every member of an active card.
 */
export async function registryStatistics({ ctx }: { ctx: TenantCtx }) {
  const today = jakartaDay(ctx.now());
  const [blocks, groups, bands, inactive] = await registryAggregates(ctx.db, today);
  const deceased = (rows: { living: string; n?: number }[]) =>
    rows.reduce((sum, r) => sum + (r.living === "meninggal" ? (r.n ?? 1) : 0), 0);
  const totalPersons = blocks.reduce((sum, r) => sum + Number(r.persons), 0);
  const by = breakdowns(groups, bands, inactive, today);
  const known = (map: Map<string | null, number>, keys: readonly string[]) => {
    const rows = keys.map((key) => ({ key, n: map.get(key) ?? 0 }));
    return [...rows, { key: UNKNOWN, n: totalPersons - rows.reduce((sum, r) => sum + r.n, 0) }];
  };
  const ages = [...by.age].flatMap(([i, n]) => (i < 0 ? [] : [{ key: AGE_BANDS[i] ?? "75+", n }]));
  const bandTotal = ages.reduce((sum, r) => sum + r.n, 0);
  return {
    totalFamilies: blocks.reduce((sum, r) => sum + r.families, 0),
    totalPersons,
    totalVehicles: blocks.reduce((sum, r) => sum + Number(r.vehicles), 0),
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
        {
          key: "meninggal",
          n: deceased(groups) - deceased(inactive),
        },
      ],
      ["hidup", "meninggal"],
    ),
  };
}
