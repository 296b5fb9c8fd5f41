import { and, count, eq, type SQL, sql } from "drizzle-orm";
import type { TenantCtx } from "../../core/context";
import { jakartaDay } from "../../core/time";
import { familyCards, familyMembers, RELIGIONS, RESIDENCE_STATUSES, units, vehicles } from "./tables";

const UNKNOWN = "tidak_diketahui";

/** The usual five-year bands, 0–4 … 70–74, then 75+. */
export const AGE_BANDS = [...Array.from({ length: 15 }, (_, i) => `${i * 5}-${i * 5 + 4}`), "75+"];

/** Persons alive on an active card: who the registry says lives in the community. */
const living = and(eq(familyCards.status, "aktif"), eq(familyMembers.livingStatus, "hidup"));

/** Registry persons living in the tenant, as one query: the dashboard's "total registered residents". */
export function registryResidentsQuery(ctx: Pick<TenantCtx, "db">) {
  return ctx.db
    .select({ n: count() })
    .from(familyMembers)
    .innerJoin(familyCards, eq(familyCards.id, familyMembers.familyCardId))
    .where(living);
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

/** `sum(<condition>)`: how many rows of the group meet it (0 for an empty group, never null). */
const countWhere = (condition: SQL) => sql<number>`coalesce(sum(${condition}), 0)`;
/** One of the module's own enum values as an SQL literal (never user input). */
const literal = (value: string) => sql.raw(`'${value.replace(/'/g, "''")}'`);
const alive = sql`${familyMembers.livingStatus} = 'hidup'`;

/** 2026-11-24 → 20261124: whole years between two such numbers are their difference over 10,000. */
const dayNumber = (day: string) => Number(day.replaceAll("-", ""));

/** Members of active cards: the join every person count starts from. */
const onActiveCard = and(eq(familyCards.id, familyMembers.familyCardId), eq(familyCards.status, "aktif"));

/**
 * The four aggregates in one D1 batch: active cards per block, vehicles of active cards per block,
 * members of active cards per block with conditional sums by sex, religion, residence and living
 * status, and living members per age band (computed in SQL against `todayNumber`).
 */
function registryAggregates(db: TenantCtx["db"], todayNumber: number) {
  // The band index: 0 for 0–4 … 14 for 70–74, 15 and over are 75+; -1 for no (or a future) birth date.
  const band = sql<number>`case when ${familyMembers.birthDate} is null then -1 else max(-1, min(15, (cast(${todayNumber} as integer) - cast(replace(${familyMembers.birthDate}, '-', '') as integer)) / 50000)) end`;
  return db.batch([
    db
      .select({ block: units.block, n: count() })
      .from(familyCards)
      .innerJoin(units, eq(units.id, familyCards.unitId))
      .where(eq(familyCards.status, "aktif"))
      .groupBy(units.block),
    db
      .select({ block: units.block, n: count() })
      .from(vehicles)
      .innerJoin(familyCards, eq(familyCards.id, vehicles.familyCardId))
      .innerJoin(units, eq(units.id, familyCards.unitId))
      .where(eq(familyCards.status, "aktif"))
      .groupBy(units.block),
    db
      .select({
        block: units.block,
        everyone: count(),
        alive: countWhere(alive),
        male: countWhere(sql`${alive} and ${familyMembers.sex} = 'L'`),
        female: countWhere(sql`${alive} and ${familyMembers.sex} = 'P'`),
        ...Object.fromEntries(
          RELIGIONS.map((r) => [
            `religion_${r}`,
            countWhere(sql`${alive} and ${familyMembers.religion} = ${literal(r)}`),
          ]),
        ),
        ...Object.fromEntries(
          RESIDENCE_STATUSES.map((r) => [
            `residence_${r}`,
            countWhere(sql`${alive} and ${familyMembers.residenceStatus} = ${literal(r)}`),
          ]),
        ),
      })
      .from(familyMembers)
      .innerJoin(familyCards, onActiveCard)
      .leftJoin(units, eq(units.id, familyCards.unitId))
      .groupBy(units.block),
    db
      .select({ band, n: count() })
      .from(familyMembers)
      .innerJoin(familyCards, onActiveCard)
      .where(alive)
      .groupBy(sql`1`),
  ]);
}

type BlockCount = { block: string | null; n: number };

/** Families, living persons and vehicles per block, blocks in natural order ("A2" before "A10"). */
function perBlock(
  families: BlockCount[],
  cars: BlockCount[],
  people: { block: string | null; alive: number }[],
) {
  const blocks = [
    ...new Set([...families, ...cars, ...people].flatMap((r) => (r.block === null ? [] : [r.block]))),
  ].sort((a, b) => a.localeCompare(b, "id", { numeric: true }));
  const of = (rows: BlockCount[], block: string) => rows.find((r) => r.block === block)?.n ?? 0;
  return blocks.map((block) => ({
    block,
    families: of(families, block),
    persons: people.find((r) => r.block === block)?.alive ?? 0,
    vehicles: of(cars, block),
  }));
}

/**
 * The registry in numbers, in one D1 batch of four aggregates (no per-person work in the isolate):
 * active cards per block, vehicles of active cards per block, and one pass over the members of
 * active cards grouped by block that counts persons by sex, religion, residence and living status
 * with conditional sums; the age bands are a second pass grouped on the band, computed in SQL from
 * `birth_date` against today's Jakarta date passed as a parameter (YYYYMMDD arithmetic: the age is
 * (today − birth) / 10000, the band index that over 5). Persons (and every breakdown but living
 * status) are members alive on an active card; living status counts every member of an active card.
 */
export async function registryStatistics({ ctx }: { ctx: TenantCtx }) {
  const today = ctx.now();
  const todayNumber = dayNumber(jakartaDay(today));
  const [families, cars, people, ages] = await registryAggregates(ctx.db, todayNumber);
  const total = (key: string) =>
    people.reduce((sum, row) => sum + Number((row as Record<string, unknown>)[key] ?? 0), 0);
  const alivePersons = total("alive");
  const known = (keys: readonly string[], prefix: string) => {
    const rows = keys.map((key) => ({ key, n: total(`${prefix}${key}`) }));
    return [...rows, { key: UNKNOWN, n: alivePersons - rows.reduce((sum, r) => sum + r.n, 0) }];
  };
  const sum = (rows: { n: number }[]) => rows.reduce((s, r) => s + r.n, 0);
  const bandLabel = (i: number) => (i < 0 ? UNKNOWN : (AGE_BANDS[i] ?? "75+"));
  return {
    totalFamilies: sum(families),
    totalPersons: alivePersons,
    totalVehicles: sum(cars),
    perBlock: perBlock(families, cars, people),
    sex: tally(
      [
        { key: "L", n: total("male") },
        { key: "P", n: total("female") },
      ],
      ["L", "P"],
    ),
    ageGroups: tally(
      ages.map((r) => ({ key: bandLabel(Number(r.band)), n: r.n })),
      [...AGE_BANDS, UNKNOWN],
    ),
    religion: tally(known(RELIGIONS, "religion_").filter((r) => r.n > 0)),
    residenceStatus: tally(known(RESIDENCE_STATUSES, "residence_"), ["tetap", "kontrak", "kos", UNKNOWN]),
    livingStatus: tally(
      [
        { key: "hidup", n: alivePersons },
        { key: "meninggal", n: total("everyone") - alivePersons },
      ],
      ["hidup", "meninggal"],
    ),
  };
}
