import { and, asc, count, eq, gt, inArray, like, or, type SQL } from "drizzle-orm";
import { auditInsert } from "../../core/audit";
import type { TenantCtx, TenantDb } from "../../core/context";
import { platformDb } from "../../core/db/platform";
import { Conflict, NotFound } from "../../core/errors";
import { newId } from "../../core/ids";
import { requireCompleteProfile } from "../identity/service";
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
  const text = String(error);
  if (text.includes("family_cards.kk_number")) {
    throw new Conflict("kk_exists", "A family card with this number is already registered.");
  }
  if (text.includes("family_members.nik")) {
    throw new Conflict("nik_exists", "A person with this NIK is already registered.");
  }
  throw error;
}

function audit(ctx: TenantCtx, action: string, targetType: string, targetId: string) {
  // No NIK or KK number in the audit detail: the audit log is read more widely than the registry.
  return auditInsert(platformDb(ctx.env), ctx, { tenantId: ctx.tenant.id, action, targetType, targetId });
}

/** The card and its head (as a member) go in one batch: a card without its head never exists. */
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
    ]);
  } catch (error) {
    registryConflict(error);
  }
  await audit(ctx, "kk.create", "family_card", id);
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
    await ctx.db.insert(familyMembers).values({
      id: memberId,
      familyCardId: id,
      name: input.name,
      nik: input.nik,
      relationship: input.relationship,
      sex: input.sex,
      birthDate: input.birthDate ?? null,
      birthPlace: input.birthPlace ?? null,
      updatedAt: new Date().toISOString(),
    });
  } catch (error) {
    registryConflict(error);
  }
  await audit(ctx, "kk.member.add", "family_member", memberId);
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
  const filters: SQL[] = [];
  if (input.cursor) {
    filters.push(gt(familyCards.id, input.cursor));
  }
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
  const page = rows.slice(0, input.limit);
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
    nextCursor: rows.length > input.limit ? (page.at(-1)?.card.id ?? null) : null,
  };
}

/** Everyone on every family card registered at a unit: a resident's household. */
export async function householdMembers(db: TenantDb, unitId: string): Promise<MemberRow[]> {
  const cards = await db
    .select({ id: familyCards.id })
    .from(familyCards)
    .where(eq(familyCards.unitId, unitId));
  return membersOf(
    db,
    cards.map((c) => c.id),
  );
}

/** The caller's own household, NIKs masked: what a resident picks "on behalf of" from. */
export async function myHousehold({ ctx }: { ctx: TenantCtx }) {
  if (ctx.actor.kind !== "user") {
    throw new Error("myHousehold needs a signed-in resident");
  }
  const { unitId } = await requireCompleteProfile(ctx.env, ctx.actor.userId, ctx.tenant.id);
  const members = await householdMembers(ctx.db, unitId);
  return {
    unitId,
    unit: await unitRef(ctx.db, unitId),
    members: members.map((m) => presentMember(m, false)),
  };
}
