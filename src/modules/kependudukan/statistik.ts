import { and, count, eq, sql } from "drizzle-orm";
import type { TenantCtx } from "../../core/context";
import { jakartaDay } from "../../core/time";
import { familyCards, familyMembers, units, vehicles } from "./tables";

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

export async function countRegistryResidents({ ctx }: { ctx: Pick<TenantCtx, "db"> }): Promise<number> {
  return (await registryResidentsQuery(ctx).get())?.n ?? 0;
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
 * The registry in numbers, in one D1 round trip: totals, per block, and persons by sex, age band
 * (age on today's Jakarta date), religion, residence status; living status over every person on an
 * active card. Families and vehicles count active cards only.
 */
export async function registryStatistics({ ctx }: { ctx: TenantCtx }) {
  // A literal, not a parameter: the same expression is selected and grouped on.
  const today = sql.raw(`'${jakartaDay(new Date())}'`);
  const age = sql<number>`cast(strftime('%Y', ${today}) as integer) - cast(strftime('%Y', ${familyMembers.birthDate}) as integer) - (strftime('%m-%d', ${today}) < strftime('%m-%d', ${familyMembers.birthDate}))`;
  const band = sql<
    string | null
  >`case when ${familyMembers.birthDate} is null then null when (${age}) >= 75 then '75+' else (((${age}) / 5) * 5) || '-' || (((${age}) / 5) * 5 + 4) end`;
  const db = ctx.db;
  const [families, people, cars, sexes, ages, religions, residence, life] = await db.batch([
    db
      .select({ key: units.block, n: count() })
      .from(familyCards)
      .innerJoin(units, eq(units.id, familyCards.unitId))
      .where(eq(familyCards.status, "aktif"))
      .groupBy(units.block),
    db
      .select({ key: units.block, n: count() })
      .from(familyMembers)
      .innerJoin(familyCards, eq(familyCards.id, familyMembers.familyCardId))
      .innerJoin(units, eq(units.id, familyCards.unitId))
      .where(living)
      .groupBy(units.block),
    db
      .select({ key: units.block, n: count() })
      .from(vehicles)
      .innerJoin(familyCards, eq(familyCards.id, vehicles.familyCardId))
      .innerJoin(units, eq(units.id, familyCards.unitId))
      .where(eq(familyCards.status, "aktif"))
      .groupBy(units.block),
    db
      .select({ key: familyMembers.sex, n: count() })
      .from(familyMembers)
      .innerJoin(familyCards, eq(familyCards.id, familyMembers.familyCardId))
      .where(living)
      .groupBy(familyMembers.sex),
    db
      .select({ key: band, n: count() })
      .from(familyMembers)
      .innerJoin(familyCards, eq(familyCards.id, familyMembers.familyCardId))
      .where(living)
      .groupBy(band),
    db
      .select({ key: familyMembers.religion, n: count() })
      .from(familyMembers)
      .innerJoin(familyCards, eq(familyCards.id, familyMembers.familyCardId))
      .where(living)
      .groupBy(familyMembers.religion),
    db
      .select({ key: familyMembers.residenceStatus, n: count() })
      .from(familyMembers)
      .innerJoin(familyCards, eq(familyCards.id, familyMembers.familyCardId))
      .where(living)
      .groupBy(familyMembers.residenceStatus),
    db
      .select({ key: familyMembers.livingStatus, n: count() })
      .from(familyMembers)
      .innerJoin(familyCards, eq(familyCards.id, familyMembers.familyCardId))
      .where(eq(familyCards.status, "aktif"))
      .groupBy(familyMembers.livingStatus),
  ]);
  const blocks = [...new Set([...families, ...people, ...cars].map((r) => r.key))].sort((a, b) =>
    a.localeCompare(b, "id", { numeric: true }),
  );
  const of = (rows: { key: string; n: number }[], block: string) => rows.find((r) => r.key === block)?.n ?? 0;
  const sum = (rows: { n: number }[]) => rows.reduce((total, r) => total + r.n, 0);
  return {
    totalFamilies: sum(families),
    totalPersons: sum(people),
    totalVehicles: sum(cars),
    perBlock: blocks.map((block) => ({
      block,
      families: of(families, block),
      persons: of(people, block),
      vehicles: of(cars, block),
    })),
    sex: tally(sexes, ["L", "P"]),
    ageGroups: tally(ages, [...AGE_BANDS, UNKNOWN]),
    religion: tally(religions),
    residenceStatus: tally(residence, ["tetap", "kontrak", "kos", UNKNOWN]),
    livingStatus: tally(life, ["hidup", "meninggal"]),
  };
}
