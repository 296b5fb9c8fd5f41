import { and, asc, eq, gte, inArray, like, lt, or, type SQL, sql } from "drizzle-orm";
import type { TenantCtx, TenantDb } from "../../core/context";
import { isUniqueViolation } from "../../core/db/errors";
import { afterCursor, keysetPage } from "../../core/db/paging";
import { rowByIdOrNotFound } from "../../core/db/rows";
import { Conflict, Invalid, NotFound } from "../../core/errors";
import { displayPlate, plateSearchKey } from "../../core/plate";
import { normaliseBlock } from "../../core/schemas";
import { kkNumberProblems, type NikFacts, nikProblems } from "./nik";
import type { FamilyCardListQuery } from "./schemas";
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
    // Rows from before ADR 0047 keep the spelling they were typed in; they are shown in the standard form.
    plate: displayPlate(row.plate) ?? row.plate,
    plateDuplicate: row.plateDuplicate,
    kind: row.kind,
    brand: row.brand,
    model: row.model,
    colour: row.colour,
    createdAt: row.createdAt,
  };
}

export async function unitRef(db: TenantDb, unitId: string) {
  return (await unitRefQuery(db, unitId).get()) ?? null;
}

const unitRefQuery = (db: TenantDb, unitId: string) =>
  db
    .select({ id: units.id, block: units.block, number: units.number })
    .from(units)
    .where(eq(units.id, unitId));

/** UNIQUE failures name the index's columns; turn them into the conflict the client can act on. */
export function registryConflict(error: unknown): never {
  if (isUniqueViolation(error, "family_cards.kk_number")) {
    throw new Conflict("kk_number_taken", "A family card with this number is already registered.");
  }
  if (isUniqueViolation(error, "family_members.nik")) {
    throw new Conflict("nik_taken", "A person with this NIK is already registered.");
  }
  if (isUniqueViolation(error, "vehicles.plate_key")) {
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

export async function cardOr404(db: TenantDb, id: string): Promise<CardRow> {
  return rowByIdOrNotFound(db, familyCards, id, "Family card");
}

export async function memberOr404(db: TenantDb, cardId: string, memberId: string): Promise<MemberRow> {
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
  // A plate is found by its key however it is spaced, dashed or cased ("b1234-xy" finds "B 1234 XY"):
  // a term with a digit in it is also looked for in the vehicles' keys (a name search needs no second look).
  const plate = plateSearchKey(term);
  if (plate !== null && /\d/.test(plate)) {
    alternatives.push(
      inArray(
        familyCards.id,
        db
          .select({ id: vehicles.familyCardId })
          .from(vehicles)
          .where(like(vehicles.plateKey, `%${plate}%`)),
      ),
    );
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
  return (await householdQuery(ctx.db, id)).map((r) => r.member);
}

function householdQuery(db: TenantDb, unitId: string) {
  return db
    .select({ member: familyMembers })
    .from(familyMembers)
    .innerJoin(familyCards, eq(familyCards.id, familyMembers.familyCardId))
    .where(and(eq(familyCards.unitId, unitId), eq(familyCards.status, "aktif")))
    .orderBy(asc(familyMembers.id));
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
  // The members and their house in one batch.
  const [rows, [unit]] = await ctx.db.batch([householdQuery(ctx.db, id), unitRefQuery(ctx.db, id)]);
  const members = rows.map((r) => r.member);
  return {
    unitId: id,
    unit: unit ?? null,
    personId,
    members: members.map((m) => ({ ...presentMember(m, false), isMe: m.id === personId })),
  };
}
