import { and, eq } from "drizzle-orm";
import type { TenantCtx } from "../../core/context";
import { familyCards, familyMembers } from "./tables";

/**
 * One person of the registry (a member of a family card) with the card's unit: what an account is
 * linked to (issue 27, identity's `memberships.person_id`). Undefined for an unknown id, and for a
 * person whose card is no longer active (moved away, dissolved): nobody links an account to them.
 */
export async function personById({ ctx, id }: { ctx: Pick<TenantCtx, "db">; id: string }) {
  const row = await ctx.db
    .select({ person: familyMembers, unitId: familyCards.unitId, kkNumber: familyCards.kkNumber })
    .from(familyMembers)
    .innerJoin(familyCards, eq(familyCards.id, familyMembers.familyCardId))
    .where(and(eq(familyMembers.id, id), eq(familyCards.status, "aktif")))
    .get();
  return row ? { ...row.person, unitId: row.unitId, kkNumber: row.kkNumber } : undefined;
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
