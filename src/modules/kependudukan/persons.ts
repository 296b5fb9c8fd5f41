import { and, eq, type SQL, sql } from "drizzle-orm";
import type { TenantCtx } from "../../core/context";
import { familyCards, familyMembers, units } from "./tables";

/**
 * One person of the registry (a member of a family card) with the card's unit: what an account is
 * linked to (issue 27, identity's `memberships.person_id`). Undefined for an unknown id, and for a
 * person whose card is no longer active (moved away, dissolved): nobody links an account to them.
 */
export async function personById({ ctx, id }: { ctx: Pick<TenantCtx, "db">; id: string }) {
  return personOf((await personQuery(ctx.db, id))[0]);
}

function personQuery(db: TenantCtx["db"], id: string | SQL) {
  return db
    .select({ person: familyMembers, unitId: familyCards.unitId, kkNumber: familyCards.kkNumber })
    .from(familyMembers)
    .innerJoin(familyCards, eq(familyCards.id, familyMembers.familyCardId))
    .where(and(eq(familyMembers.id, id), eq(familyCards.status, "aktif")))
    .limit(1);
}

type PersonRow = Awaited<ReturnType<typeof personQuery>>[number];

const personOf = (row: PersonRow | undefined) =>
  row ? { ...row.person, unitId: row.unitId, kkNumber: row.kkNumber } : undefined;

/**
 * A person as `personById` finds them, and the house they live at (block and number), else the house
 * given (`fallbackUnitId`: a letter's, when its subject's card has moved away): one batch, where the
 * person and then their house would be two calls in a row.
 */
export async function personAndHouse({
  ctx,
  id,
  fallbackUnitId,
}: {
  ctx: Pick<TenantCtx, "db">;
  id: string;
  fallbackUnitId: string;
}) {
  const { queries, read } = personAndHouseQueries(ctx.db, id, fallbackUnitId);
  return read(await ctx.db.batch(queries));
}

/**
 * `personAndHouse` as two queries for a caller's own batch, `read` turning their results into its
 * answer; the ids may be SQL (a subquery on the caller's row, read in the same batch).
 */
export function personAndHouseQueries(db: TenantCtx["db"], id: string | SQL, fallbackUnitId: string | SQL) {
  const livesAt = sql`coalesce((SELECT ${familyCards.unitId} FROM ${familyMembers} JOIN ${familyCards} ON ${familyCards.id} = ${familyMembers.familyCardId} WHERE ${familyMembers.id} = ${id} AND ${familyCards.status} = 'aktif'), ${fallbackUnitId})`;
  const queries = [
    personQuery(db, id),
    db
      .select({ id: units.id, block: units.block, number: units.number })
      .from(units)
      .where(eq(units.id, livesAt)),
  ] as const;
  const read = ([[person], [house]]: readonly [
    PersonRow[],
    { id: string; block: string; number: string }[],
  ]) => ({
    person: personOf(person),
    house: house ?? null,
  });
  return { queries, read };
}

/** Whether the person is on an active card of the unit: a person link survives a move only then. */
export async function isPersonAt({
  ctx,
  personId,
  unitId,
}: {
  ctx: Pick<TenantCtx, "db">;
  personId: string | null;
  unitId: string | null;
}): Promise<boolean> {
  if (personId === null || unitId === null) {
    return false;
  }
  return (await personById({ ctx, id: personId }))?.unitId === unitId;
}

/**
 * The family card a registry person is on, whatever the card's status: a family that moved out keeps
 * its card (`pindah`), and its bills name it (keuangan's moved-out debt, issue 45). Undefined for an
 * unknown person.
 */
export async function familyCardOfPerson({
  ctx,
  personId,
}: {
  ctx: Pick<TenantCtx, "db">;
  personId: string;
}) {
  const row = await ctx.db
    .select({ familyCardId: familyMembers.familyCardId })
    .from(familyMembers)
    .where(eq(familyMembers.id, personId))
    .get();
  return row?.familyCardId;
}
