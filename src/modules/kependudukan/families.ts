import { and, asc, count, eq, inArray, like, or, type SQL } from "drizzle-orm";
import { audit } from "../../core/audit";
import type { TenantCtx, TenantDb } from "../../core/context";
import { isUniqueViolation } from "../../core/db/errors";
import { afterCursor, keysetPage } from "../../core/db/paging";
import { Conflict, NotFound } from "../../core/errors";
import { newId } from "../../core/ids";
import type { CreateFamilyCardInput, FamilyCardListQuery, MemberInput } from "./schemas";
import { familyCards, familyMembers, units } from "./tables";

type CardRow = typeof familyCards.$inferSelect;
type MemberRow = typeof familyMembers.$inferSelect;

/** 3201234567890001 → 3201********0001: enough to tell people apart in a list, not enough to misuse. */
export function maskNik(nik: string): string {
  return nik.length === 16 ? `${nik.slice(0, 4)}********${nik.slice(-4)}` : "****************";
}

function presentMember(row: MemberRow, wholeNik: boolean) {
  return {
    id: row.id,
    familyCardId: row.familyCardId,
    name: row.name,
    nik: wholeNik ? row.nik : maskNik(row.nik),
    relationship: row.relationship,
    sex: row.sex,
    birthDate: row.birthDate,
    birthPlace: row.birthPlace,
  };
}

async function unitRef(db: TenantDb, unitId: string) {
  return (
    (await db
      .select({ id: units.id, block: units.block, number: units.number })
      .from(units)
      .where(eq(units.id, unitId))
      .get()) ?? null
  );
}

/** UNIQUE failures name the index's columns; turn them into the conflict the client can act on. */
function registryConflict(error: unknown): never {
  if (isUniqueViolation(error, "family_cards.kk_number")) {
    throw new Conflict("kk_exists", "A family card with this number is already registered.");
  }
  if (isUniqueViolation(error, "family_members.nik")) {
    throw new Conflict("nik_exists", "A person with this NIK is already registered.");
  }
  throw error;
}

/**
 * The card, its head (as a member) and the audit record go in one batch: a card without its head, or
 * without its record, never exists. No NIK or KK number in the audit detail: the audit log is read
 * more widely than the registry.
 */
export async function createFamilyCard({ ctx, input }: { ctx: TenantCtx; input: CreateFamilyCardInput }) {
  if (!(await unitRef(ctx.db, input.unitId))) {
    throw new NotFound("Unit", "unit_not_found");
  }
  const id = newId();
  const now = new Date().toISOString();
  try {
    await ctx.db.batch([
      ctx.db.insert(familyCards).values({
        id,
        kkNumber: input.kkNumber,
        unitId: input.unitId,
        headName: input.headName,
        headNik: input.headNik,
        headWhatsapp: input.headWhatsapp ?? null,
        updatedAt: now,
      }),
      ctx.db.insert(familyMembers).values({
        id: newId(),
        familyCardId: id,
        name: input.headName,
        nik: input.headNik,
        relationship: "kepala_keluarga",
        sex: input.headSex,
        birthDate: input.headBirthDate ?? null,
        birthPlace: input.headBirthPlace ?? null,
        updatedAt: now,
      }),
      audit(ctx, { action: "kk.create", targetType: "family_card", targetId: id }),
    ]);
  } catch (error) {
    registryConflict(error);
  }
  return getFamilyCard({ ctx, id });
}

export async function addFamilyMember({
  ctx,
  id,
  input,
}: {
  ctx: TenantCtx;
  id: string;
  input: MemberInput;
}) {
  const card = await ctx.db.select().from(familyCards).where(eq(familyCards.id, id)).get();
  if (!card) {
    throw new NotFound("Family card");
  }
  const memberId = newId();
  try {
    await ctx.db.batch([
      ctx.db.insert(familyMembers).values({
        id: memberId,
        familyCardId: id,
        name: input.name,
        nik: input.nik,
        relationship: input.relationship,
        sex: input.sex,
        birthDate: input.birthDate ?? null,
        birthPlace: input.birthPlace ?? null,
        updatedAt: new Date().toISOString(),
      }),
      audit(ctx, { action: "kk.member.add", targetType: "family_member", targetId: memberId }),
    ]);
  } catch (error) {
    registryConflict(error);
  }
  return getFamilyCard({ ctx, id });
}

async function membersOf(db: TenantDb, cardIds: readonly string[]): Promise<MemberRow[]> {
  if (cardIds.length === 0) {
    return [];
  }
  return db
    .select()
    .from(familyMembers)
    .where(inArray(familyMembers.familyCardId, [...cardIds]))
    .orderBy(asc(familyMembers.id));
}

/** Staff detail view: the only place NIKs and the KK number are shown whole. */
export async function getFamilyCard({ ctx, id }: { ctx: TenantCtx; id: string }) {
  const card = await ctx.db.select().from(familyCards).where(eq(familyCards.id, id)).get();
  if (!card) {
    throw new NotFound("Family card");
  }
  const members = await membersOf(ctx.db, [card.id]);
  return {
    ...summary(card, members.length, await unitRef(ctx.db, card.unitId), true),
    headWhatsapp: card.headWhatsapp,
    members: members.map((m) => presentMember(m, true)),
  };
}

function summary(
  card: CardRow,
  memberCount: number,
  unit: { id: string; block: string; number: string } | null,
  whole: boolean,
) {
  return {
    id: card.id,
    kkNumber: whole ? card.kkNumber : maskNik(card.kkNumber),
    unitId: card.unitId,
    unit,
    headName: card.headName,
    headNik: whole ? card.headNik : maskNik(card.headNik),
    memberCount,
    createdAt: card.createdAt,
  };
}

export async function listFamilyCards({ ctx, input }: { ctx: TenantCtx; input: FamilyCardListQuery }) {
  const filters: SQL[] = afterCursor(familyCards.id, input.cursor, "asc");
  if (input.unitId) {
    filters.push(eq(familyCards.unitId, input.unitId));
  }
  if (input.q) {
    const q = input.q.replace(/[%_]/g, "");
    const byName = like(familyCards.headName, `%${q}%`);
    filters.push(/^\d+$/.test(q) ? (or(byName, like(familyCards.kkNumber, `${q}%`)) ?? byName) : byName);
  }
  const rows = await ctx.db
    .select({ card: familyCards, unit: { id: units.id, block: units.block, number: units.number } })
    .from(familyCards)
    .leftJoin(units, eq(units.id, familyCards.unitId))
    .where(and(...filters))
    .orderBy(asc(familyCards.id))
    .limit(input.limit + 1);
  const { items: page, nextCursor } = keysetPage(
    rows.map((r) => ({ id: r.card.id, ...r })),
    input.limit,
  );
  const counts = page.length
    ? await ctx.db
        .select({ id: familyMembers.familyCardId, n: count() })
        .from(familyMembers)
        .where(
          inArray(
            familyMembers.familyCardId,
            page.map((r) => r.card.id),
          ),
        )
        .groupBy(familyMembers.familyCardId)
    : [];
  const byCard = new Map(counts.map((c) => [c.id, c.n]));
  return {
    items: page.map((r) => summary(r.card, byCard.get(r.card.id) ?? 0, r.unit, false)),
    nextCursor,
  };
}

/** Everyone on every family card registered at a unit (`id`): a resident's household. */
export async function householdMembers({
  ctx,
  id,
}: {
  ctx: Pick<TenantCtx, "db">;
  id: string;
}): Promise<MemberRow[]> {
  const cards = await ctx.db
    .select({ id: familyCards.id })
    .from(familyCards)
    .where(eq(familyCards.unitId, id));
  return membersOf(
    ctx.db,
    cards.map((c) => c.id),
  );
}

/**
 * The household at a unit, NIKs masked: what a resident picks "on behalf of" from. The route passes
 * the caller's own unit (from identity's profile), so the registry needs nothing of identity.
 */
export async function householdAt({ ctx, id }: { ctx: TenantCtx; id: string }) {
  const members = await householdMembers({ ctx, id });
  return {
    unitId: id,
    unit: await unitRef(ctx.db, id),
    members: members.map((m) => presentMember(m, false)),
  };
}
