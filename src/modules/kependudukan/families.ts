import { and, asc, eq, gte, inArray, like, lt, ne, or, type SQL, sql } from "drizzle-orm";
import type { BatchItem } from "drizzle-orm/batch";
import { audit } from "../../core/audit";
import type { TenantCtx, TenantDb } from "../../core/context";
import { isUniqueViolation } from "../../core/db/errors";
import { afterCursor, keysetPage } from "../../core/db/paging";
import { rowByIdOrNotFound } from "../../core/db/rows";
import { Conflict, Invalid, NotFound } from "../../core/errors";
import { newId } from "../../core/ids";
import { normaliseBlock } from "../../core/schemas";
import { jakartaDay } from "../../core/time";
import { kkNumberProblems, type NikFacts, nikProblems } from "./nik";
import {
  type CreateFamilyCardInput,
  type FamilyCardListQuery,
  type MemberInput,
  normalisePlate,
  type UpdateFamilyCardInput,
  type UpdateMemberInput,
} from "./schemas";
import { familyCards, familyMembers, units, vehicles } from "./tables";

export type CardRow = typeof familyCards.$inferSelect;
export type MemberRow = typeof familyMembers.$inferSelect;
export type VehicleRow = typeof vehicles.$inferSelect;

/** 3201234567890001 → 3201********0001: enough to tell people apart in a list, not enough to misuse. */
export function maskNik(nik: string): string {
  return nik.length === 16 ? `${nik.slice(0, 4)}********${nik.slice(-4)}` : "****************";
}

export function presentMember(row: MemberRow, wholeNik: boolean) {
  return {
    id: row.id,
    familyCardId: row.familyCardId,
    name: row.name,
    nik: wholeNik ? row.nik : maskNik(row.nik),
    relationship: row.relationship,
    sex: row.sex,
    birthDate: row.birthDate,
    birthPlace: row.birthPlace,
    religion: row.religion,
    education: row.education,
    occupation: row.occupation,
    maritalStatus: row.maritalStatus,
    citizenship: row.citizenship,
    livingStatus: row.livingStatus,
    deathDate: row.deathDate,
    residenceStatus: row.residenceStatus,
  };
}

export function presentVehicle(row: VehicleRow) {
  return {
    id: row.id,
    familyCardId: row.familyCardId,
    plate: row.plate,
    kind: row.kind,
    brand: row.brand,
    model: row.model,
    colour: row.colour,
    createdAt: row.createdAt,
  };
}

export async function unitRef(db: TenantDb, unitId: string) {
  return (
    (await db
      .select({ id: units.id, block: units.block, number: units.number })
      .from(units)
      .where(eq(units.id, unitId))
      .get()) ?? null
  );
}

/** UNIQUE failures name the index's columns; turn them into the conflict the client can act on. */
export function registryConflict(error: unknown): never {
  if (isUniqueViolation(error, "family_cards.kk_number")) {
    throw new Conflict("kk_number_taken", "A family card with this number is already registered.");
  }
  if (isUniqueViolation(error, "family_members.nik")) {
    throw new Conflict("nik_taken", "A person with this NIK is already registered.");
  }
  if (isUniqueViolation(error, "vehicles.plate")) {
    throw new Conflict("plate_taken", "A vehicle with this plate is already registered.");
  }
  // drizzle's message lists the statement's parameters (NIKs, KK numbers): never let them reach a log.
  const text = error instanceof Error ? error.message : String(error);
  const cause = error instanceof Error && error.cause instanceof Error ? `: ${error.cause.message}` : "";
  throw new Error(`${text.replace(/\nparams:[\s\S]*$/, "\nparams: (withheld: personal data)")}${cause}`);
}

/** 400 `invalid_nik` when the NIK breaks its rules or disagrees with the person's sex or birth date. */
export function checkNik(nik: string, facts: NikFacts, field = "nik"): void {
  const problems = nikProblems(nik, facts);
  if (problems.length > 0) {
    throw new Invalid(
      "invalid_nik",
      "The NIK is not valid.",
      problems.map((message) => ({ field, message })),
    );
  }
}

export function checkKkNumber(kkNumber: string): void {
  const problems = kkNumberProblems(kkNumber);
  if (problems.length > 0) {
    throw new Invalid(
      "invalid_kk_number",
      "The KK number is not valid.",
      problems.map((message) => ({ field: "kkNumber", message })),
    );
  }
}

async function cardOr404(db: TenantDb, id: string): Promise<CardRow> {
  return rowByIdOrNotFound(db, familyCards, id, "Family card");
}

async function memberOr404(db: TenantDb, cardId: string, memberId: string): Promise<MemberRow> {
  const member = await db
    .select()
    .from(familyMembers)
    .where(and(eq(familyMembers.id, memberId), eq(familyMembers.familyCardId, cardId)))
    .get();
  if (!member) {
    throw new NotFound("Family member");
  }
  return member;
}

/** The statements that insert a new card with its head; the import and the mutasi reuse them. */
export function insertCardStatements(
  db: TenantDb,
  id: string,
  input: CreateFamilyCardInput,
  now: string,
): BatchItem<"sqlite">[] {
  return [
    db.insert(familyCards).values({
      id,
      kkNumber: input.kkNumber,
      unitId: input.unitId,
      headName: input.headName,
      headNik: input.headNik,
      headWhatsapp: input.headWhatsapp ?? null,
      notes: input.notes ?? null,
      updatedAt: now,
    }),
    db.insert(familyMembers).values({
      id: newId(),
      familyCardId: id,
      name: input.headName,
      nik: input.headNik,
      relationship: "kepala_keluarga",
      sex: input.headSex,
      birthDate: input.headBirthDate ?? null,
      birthPlace: input.headBirthPlace ?? null,
      religion: input.headReligion ?? null,
      education: input.headEducation ?? null,
      occupation: input.headOccupation ?? null,
      maritalStatus: input.headMaritalStatus ?? null,
      citizenship: input.headCitizenship ?? "WNI",
      residenceStatus: input.headResidenceStatus ?? null,
      updatedAt: now,
    }),
  ];
}

export function checkNewCard(input: CreateFamilyCardInput): void {
  checkKkNumber(input.kkNumber);
  checkNik(input.headNik, { sex: input.headSex, birthDate: input.headBirthDate }, "headNik");
}

/**
 * The card, its head (as a member) and the audit record go in one batch: a card without its head, or
 * without its record, never exists. No NIK or KK number in the audit detail: the audit log is read
 * more widely than the registry.
 */
export async function createFamilyCard({ ctx, input }: { ctx: TenantCtx; input: CreateFamilyCardInput }) {
  checkNewCard(input);
  if (!(await unitRef(ctx.db, input.unitId))) {
    throw new NotFound("Unit", "unit_not_found");
  }
  const id = newId();
  try {
    await ctx.db.batch([
      ...(insertCardStatements(ctx.db, id, input, new Date().toISOString()) as [BatchItem<"sqlite">]),
      audit(ctx, { action: "kk.create", targetType: "family_card", targetId: id }),
    ]);
  } catch (error) {
    registryConflict(error);
  }
  return getFamilyCard({ ctx, id });
}

export async function updateFamilyCard({
  ctx,
  id,
  input,
}: {
  ctx: TenantCtx;
  id: string;
  input: UpdateFamilyCardInput;
}) {
  const card = await cardOr404(ctx.db, id);
  if (input.kkNumber !== undefined) {
    checkKkNumber(input.kkNumber);
  }
  if (input.unitId !== undefined && !(await unitRef(ctx.db, input.unitId))) {
    throw new NotFound("Unit", "unit_not_found");
  }
  const statusChanges = input.status !== undefined && input.status !== card.status;
  const statusDate =
    input.statusDate ??
    (statusChanges ? (input.status === "aktif" ? null : jakartaDay(new Date())) : undefined);
  try {
    await ctx.db.batch([
      ctx.db
        .update(familyCards)
        .set({
          kkNumber: input.kkNumber,
          unitId: input.unitId,
          headWhatsapp: input.headWhatsapp,
          status: input.status,
          statusDate,
          notes: input.notes,
          updatedAt: new Date().toISOString(),
        })
        .where(eq(familyCards.id, id)),
      audit(ctx, {
        action: "kk.update",
        targetType: "family_card",
        targetId: id,
        detail: { fields: Object.keys(input), ...(statusChanges ? { status: input.status } : {}) },
      }),
    ]);
  } catch (error) {
    registryConflict(error);
  }
  return getFamilyCard({ ctx, id });
}

/** The card, its members and its vehicles go in one batch with the audit record. */
export async function deleteFamilyCard({ ctx, id }: { ctx: TenantCtx; id: string }) {
  await cardOr404(ctx.db, id);
  await ctx.db.batch([
    ctx.db.delete(vehicles).where(eq(vehicles.familyCardId, id)),
    ctx.db.delete(familyMembers).where(eq(familyMembers.familyCardId, id)),
    ctx.db.delete(familyCards).where(eq(familyCards.id, id)),
    audit(ctx, { action: "kk.delete", targetType: "family_card", targetId: id }),
  ]);
}

export function memberValues(input: MemberInput, cardId: string, id: string, now: string) {
  return {
    id,
    familyCardId: cardId,
    name: input.name,
    nik: input.nik,
    relationship: input.relationship,
    sex: input.sex,
    birthDate: input.birthDate ?? null,
    birthPlace: input.birthPlace ?? null,
    religion: input.religion ?? null,
    education: input.education ?? null,
    occupation: input.occupation ?? null,
    maritalStatus: input.maritalStatus ?? null,
    citizenship: input.citizenship ?? "WNI",
    residenceStatus: input.residenceStatus ?? null,
    updatedAt: now,
  };
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
  checkNik(input.nik, { sex: input.sex, birthDate: input.birthDate });
  await cardOr404(ctx.db, id);
  const memberId = newId();
  try {
    await ctx.db.batch([
      ctx.db.insert(familyMembers).values(memberValues(input, id, memberId, new Date().toISOString())),
      audit(ctx, { action: "kk.member.add", targetType: "family_member", targetId: memberId }),
    ]);
  } catch (error) {
    registryConflict(error);
  }
  return getFamilyCard({ ctx, id });
}

/**
 * Partial update of a member. The NIK is checked against the member's sex and birth date as they will
 * be. Making someone `kepala_keluarga` moves the head: the former head becomes `famili_lain` (staff
 * set the right relationship next) and the card's head name and NIK follow, in the same batch. The
 * head cannot stop being the head any other way: a KK always has one.
 */
export async function updateFamilyMember({
  ctx,
  id,
  memberId,
  input,
}: {
  ctx: TenantCtx;
  id: string;
  memberId: string;
  input: UpdateMemberInput;
}) {
  await cardOr404(ctx.db, id);
  const member = await memberOr404(ctx.db, id, memberId);
  const statements = memberUpdateStatements(ctx, member, input);
  statements.push(
    audit(ctx, {
      action: "kk.member.update",
      targetType: "family_member",
      targetId: memberId,
      detail: { familyCardId: id, fields: Object.keys(input) },
    }),
  );
  try {
    await ctx.db.batch(statements as [BatchItem<"sqlite">, ...BatchItem<"sqlite">[]]);
  } catch (error) {
    registryConflict(error);
  }
  return getFamilyCard({ ctx, id });
}

/**
 * The statements of a member's partial update, checked first; the caller adds its audit record (a
 * staff edit, or an accepted resident correction) to the same batch.
 */
export function memberUpdateStatements(
  ctx: TenantCtx,
  member: MemberRow,
  input: UpdateMemberInput,
): BatchItem<"sqlite">[] {
  const id = member.familyCardId;
  const memberId = member.id;
  const next = {
    nik: input.nik ?? member.nik,
    sex: input.sex ?? member.sex,
    birthDate: input.birthDate === undefined ? member.birthDate : input.birthDate,
  };
  if (input.nik !== undefined || input.sex !== undefined || input.birthDate !== undefined) {
    checkNik(next.nik, next);
  }
  const wasHead = member.relationship === "kepala_keluarga";
  if (wasHead && input.relationship !== undefined && input.relationship !== "kepala_keluarga") {
    throw new Conflict(
      "kk_head_required",
      "A family card always has a head: make another member kepala_keluarga instead.",
    );
  }
  const becomesHead = !wasHead && input.relationship === "kepala_keluarga";
  const isHead = wasHead || becomesHead;
  const now = new Date().toISOString();
  const living = input.livingStatus;
  const statements: BatchItem<"sqlite">[] = [];
  if (becomesHead) {
    statements.push(
      ctx.db
        .update(familyMembers)
        .set({ relationship: "famili_lain", updatedAt: now })
        .where(
          and(
            eq(familyMembers.familyCardId, id),
            eq(familyMembers.relationship, "kepala_keluarga"),
            ne(familyMembers.id, memberId),
          ),
        ),
    );
  }
  statements.push(
    ctx.db
      .update(familyMembers)
      .set({
        name: input.name,
        nik: input.nik,
        relationship: input.relationship,
        sex: input.sex,
        birthDate: input.birthDate,
        birthPlace: input.birthPlace,
        religion: input.religion,
        education: input.education,
        occupation: input.occupation,
        maritalStatus: input.maritalStatus,
        citizenship: input.citizenship,
        residenceStatus: input.residenceStatus,
        livingStatus: living,
        deathDate: living === "hidup" ? null : undefined,
        updatedAt: now,
      })
      .where(eq(familyMembers.id, memberId)),
  );
  if (isHead && (becomesHead || input.name !== undefined || input.nik !== undefined)) {
    statements.push(
      ctx.db
        .update(familyCards)
        .set({ headName: input.name ?? member.name, headNik: next.nik, updatedAt: now })
        .where(eq(familyCards.id, id)),
    );
  }
  return statements;
}

/** The head is removed only with the whole card (DELETE /kk/:id) or after another member became head. */
export async function deleteFamilyMember({
  ctx,
  id,
  memberId,
}: {
  ctx: TenantCtx;
  id: string;
  memberId: string;
}) {
  await cardOr404(ctx.db, id);
  const member = await memberOr404(ctx.db, id, memberId);
  if (member.relationship === "kepala_keluarga") {
    throw new Conflict(
      "kk_head_required",
      "The head of the family cannot be removed: make another member head first, or delete the card.",
    );
  }
  await ctx.db.batch([
    ctx.db.delete(familyMembers).where(eq(familyMembers.id, memberId)),
    audit(ctx, {
      action: "kk.member.delete",
      targetType: "family_member",
      targetId: memberId,
      detail: { familyCardId: id },
    }),
  ]);
  return getFamilyCard({ ctx, id });
}

/** Staff detail view: the only place NIKs and the KK number are shown whole. One round trip. */
export async function getFamilyCard({ ctx, id }: { ctx: TenantCtx; id: string }) {
  // Separate reads in one batch: D1 batch results are keyed by column name, so a join of two tables
  // that both have `id` would hand back the unit's id as the card's.
  const [cards, unitRows, members, cars] = await ctx.db.batch([
    ctx.db.select().from(familyCards).where(eq(familyCards.id, id)),
    ctx.db
      .select({ id: units.id, block: units.block, number: units.number })
      .from(units)
      .where(
        eq(
          units.id,
          sql`(select ${sql.raw('"unit_id"')} from ${familyCards} where ${eq(familyCards.id, id)})`,
        ),
      ),
    ctx.db
      .select()
      .from(familyMembers)
      .where(eq(familyMembers.familyCardId, id))
      .orderBy(asc(familyMembers.id)),
    ctx.db.select().from(vehicles).where(eq(vehicles.familyCardId, id)).orderBy(asc(vehicles.id)),
  ]);
  const card = cards[0];
  if (!card) {
    throw new NotFound("Family card");
  }
  const row = { card, unit: unitRows[0] ?? null };
  return {
    ...summary(row.card, members.length, row.unit, true),
    headWhatsapp: row.card.headWhatsapp,
    notes: row.card.notes,
    members: members.map((m) => presentMember(m, true)),
    vehicles: cars.map(presentVehicle),
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
    status: card.status,
    statusDate: card.statusDate,
    memberCount,
    createdAt: card.createdAt,
  };
}

/** `a` ≤ column < `a` + ":" (the character after "9"): a prefix match the column's index can serve. */
function startsWith(column: typeof familyMembers.nik | typeof familyCards.kkNumber, prefix: string): SQL {
  return and(gte(column, prefix), lt(column, `${prefix}:`)) as SQL;
}

/**
 * The search, as conditions on the card's own row: a member's name or a vehicle plate contains the
 * term (the card's `search_text`, which the database keeps), the block (exact, normalised), and for
 * digits the KK number or a member's NIK (starts with, by their unique indexes). The block, KK and NIK
 * alternatives are uncorrelated subqueries SQLite runs once; the text is read from the search index.
 */
function searchFilter(db: TenantDb, q: string): SQL {
  const term = q.replace(/[%_\\]/g, "");
  const alternatives: SQL[] = [
    like(familyCards.searchText, `%${term}%`),
    inArray(
      familyCards.unitId,
      db
        .select({ id: units.id })
        .from(units)
        .where(eq(units.block, normaliseBlock(term))),
    ),
  ];
  // Plates are kept upper case with single spaces: "b  1234" finds "B 1234 XYZ". LIKE ignores ASCII
  // case, so only a term whose spacing changes needs a second pattern.
  const plate = normalisePlate(term);
  if (/^[A-Z0-9 ]{2,15}$/.test(plate) && plate !== term.toUpperCase()) {
    alternatives.push(like(familyCards.searchText, `%${plate}%`));
  }
  if (/^\d{4,16}$/.test(term)) {
    alternatives.push(
      inArray(
        familyCards.id,
        db.select({ id: familyCards.id }).from(familyCards).where(startsWith(familyCards.kkNumber, term)),
      ),
      inArray(
        familyCards.id,
        db
          .select({ id: familyMembers.familyCardId })
          .from(familyMembers)
          .where(startsWith(familyMembers.nik, term)),
      ),
    );
  }
  return or(...alternatives) as SQL;
}

/**
 * One page of cards with their units and member counts, in one D1 round trip (NIKs masked). The page's
 * ids are chosen first from `family_cards_search_idx` alone, which holds every column a filter reads,
 * so walking the cards in id order past those that do not match never reads their rows; only the
 * page's own cards are then read whole.
 */
export async function listFamilyCards({ ctx, input }: { ctx: TenantCtx; input: FamilyCardListQuery }) {
  const filters: SQL[] = afterCursor(familyCards.id, input.cursor, "asc");
  if (input.unitId) {
    filters.push(eq(familyCards.unitId, input.unitId));
  }
  if (input.status) {
    // Unary `+` keeps SQLite off family_cards_status_idx here: most cards are `aktif`, and reading every
    // one of them to sort by id costs far more than walking the search index, which holds the status.
    filters.push(sql`+${familyCards.status} = ${input.status}`);
  }
  if (input.q) {
    filters.push(searchFilter(ctx.db, input.q));
  }
  const page = ctx.db
    .select({ id: familyCards.id })
    .from(familyCards)
    .where(and(...filters))
    .orderBy(asc(familyCards.id))
    .limit(input.limit + 1);
  const rows = await ctx.db
    .select({
      id: familyCards.id,
      card: familyCards,
      unit: { id: units.id, block: units.block, number: units.number },
      memberCount: sql<number>`(select count(*) from "family_members" m where m."family_card_id" = "family_cards"."id")`,
    })
    .from(familyCards)
    .leftJoin(units, eq(units.id, familyCards.unitId))
    .where(inArray(familyCards.id, page))
    .orderBy(asc(familyCards.id));
  const { items, nextCursor } = keysetPage(rows, input.limit);
  return {
    items: items.map((r) => summary(r.card, Number(r.memberCount), r.unit?.id ? r.unit : null, false)),
    nextCursor,
  };
}

/** Everyone on every active family card registered at a unit (`id`): a resident's household. */
export async function householdMembers({
  ctx,
  id,
}: {
  ctx: Pick<TenantCtx, "db">;
  id: string;
}): Promise<MemberRow[]> {
  const rows = await ctx.db
    .select({ member: familyMembers })
    .from(familyMembers)
    .innerJoin(familyCards, eq(familyCards.id, familyMembers.familyCardId))
    .where(and(eq(familyCards.unitId, id), eq(familyCards.status, "aktif")))
    .orderBy(asc(familyMembers.id));
  return rows.map((r) => r.member);
}

/**
 * The household at a unit, NIKs masked: what a resident picks "on behalf of" from. The route passes
 * the caller's own unit and linked person (from identity's profile), so the registry needs nothing of
 * identity; `isMe` marks that person, and nobody else, whatever their name.
 */
export async function householdAt({
  ctx,
  id,
  personId,
}: {
  ctx: TenantCtx;
  id: string;
  personId: string | null;
}) {
  const members = await householdMembers({ ctx, id });
  return {
    unitId: id,
    unit: await unitRef(ctx.db, id),
    personId,
    members: members.map((m) => ({ ...presentMember(m, false), isMe: m.id === personId })),
  };
}
