import { and, desc, eq, gte, lte, ne, type SQL, sql } from "drizzle-orm";
import type { BatchItem } from "drizzle-orm/batch";
import { audit } from "../../core/audit";
import type { TenantCtx } from "../../core/context";
import { abortBatchUnless, isBatchAborted } from "../../core/db/errors";
import { afterCursor, keysetPage } from "../../core/db/paging";
import { rowById } from "../../core/db/rows";
import { Conflict, Invalid, InvalidTransition, NotFound } from "../../core/errors";
import { requireUser } from "../../core/http/access";
import { newId } from "../../core/ids";
import { jakartaDay } from "../../core/time";
import { endMembershipsOnMoveOut } from "../identity/service";
import { settleBillsToFamily } from "../keuangan/service";
import { checkNik, registryConflict, unitRef } from "./families";
import { checkNewCard, insertCardStatements } from "./family-cards";
import { memberValues } from "./family-members";
import type { MutasiInput, MutasiListQuery } from "./schemas";
import { familyCards, familyMembers, mutations, units } from "./tables";

type MutationRow = typeof mutations.$inferSelect;
type CardStatus = (typeof familyCards.$inferSelect)["status"];
type LivingStatus = (typeof familyMembers.$inferSelect)["livingStatus"];

/** A family card's life: an active card moves out (`pindah`) or ends when nobody on it is alive. */
const CARD_NEXT: Record<CardStatus, CardStatus[]> = {
  aktif: ["pindah", "meninggal"],
  pindah: [],
  meninggal: [],
};
/** A person's: `hidup → meninggal`, once. */
const LIVING_NEXT: Record<LivingStatus, LivingStatus[]> = { hidup: ["meninggal"], meninggal: [] };

const stale = () =>
  new Conflict("invalid_transition", "The registry changed meanwhile; reload and try again.");

/** What every kind's statements share: the write time, and the log row and audit record that end the batch. */
interface MutasiTail {
  now: string;
  log: (
    familyCardId: string,
    memberId: string | null,
    personName: string,
    place?: string,
  ) => BatchItem<"sqlite">;
  record: (targetId: string) => BatchItem<"sqlite">;
}

/**
 * A family leaving (issue 45): `pindah_keluar`, or a death that leaves nobody alive on the card. Its
 * members' memberships end (with a grace period), and its bills become its own debt; `wholeUnit` when no
 * other active card stays at the unit, which is then marked empty and starts clean for its next occupant.
 */
interface Departure {
  familyCardId: string;
  unitId: string;
  personIds: string[];
  wholeUnit: boolean;
}

/** A kind's batch statements, and the departure it records, if any. */
interface MutasiPlan {
  statements: BatchItem<"sqlite">[];
  departure?: Departure;
}

/** The input of one kind of life event. */
type MutasiOf<K extends MutasiInput["kind"]> = Extract<MutasiInput, { kind: K }>;

/**
 * Records a life event and makes its change to the registry in one batch with the log row and the
 * audit record: `lahir` adds a member born on `date`, `meninggal` marks one dead (and the card
 * `meninggal` when nobody on it is left alive), `pindah_masuk` registers an arriving family,
 * `pindah_keluar` marks a card `pindah` (no dues from the next period: see `billingTargetsQuery`).
 * A family's move-out, or a death that leaves nobody alive on the card, is one act (issue 45): the
 * memberships of its people (and of everyone at the house, when it leaves the house empty) end with a
 * grace period (identity's `endMembershipsOnMoveOut`), the house is marked `kosong` when no other active
 * card stays there, and the family's bills are settled to its card (finance's `settleBillsToFamily`),
 * all of the registry's and finance's writes in the one batch.
 */
export async function recordMutasi({
  ctx,
  input,
}: {
  ctx: TenantCtx;
  input: MutasiInput;
}): Promise<MutationRow> {
  const actor = requireUser(ctx);
  if (input.date > jakartaDay(ctx.now())) {
    throw new Invalid("invalid_date", "A life event cannot be in the future.", [
      { field: "date", message: "after today (Asia/Jakarta)" },
    ]);
  }
  const now = ctx.now().toISOString();
  const id = newId();
  const tail: MutasiTail = {
    now,
    log: (familyCardId, memberId, personName, place) =>
      ctx.db
        .insert(mutations)
        .values({
          id,
          kind: input.kind,
          date: input.date,
          familyCardId,
          memberId,
          personName,
          place: place ?? null,
          note: input.note ?? null,
          recordedBy: actor.userId,
          createdAt: now,
        })
        .returning(),
    record: (targetId) =>
      audit(ctx, {
        action: `mutasi.${input.kind}`,
        targetType: "mutation",
        targetId: id,
        detail: { targetId },
      }),
  };
  const { statements, departure } = await mutasiStatements(ctx, input, tail);
  if (departure) {
    // The platform's memberships first, idempotently: should the registry's batch below fail, the
    // event can simply be recorded again; the other order would leave members of a family already
    // recorded as gone with nothing to retry.
    await endMembershipsOnMoveOut({
      ctx,
      personIds: departure.personIds,
      emptiedUnitId: departure.wholeUnit ? departure.unitId : null,
    });
  }
  try {
    const results = (await ctx.db.batch(
      statements as [BatchItem<"sqlite">, ...BatchItem<"sqlite">[]],
    )) as unknown[];
    const row = results.flat().find((r): r is MutationRow => (r as MutationRow | undefined)?.id === id);
    if (!row) {
      throw new Error("mutation log row missing");
    }
    return row;
  } catch (error) {
    if (isBatchAborted(error)) {
      throw stale();
    }
    registryConflict(error);
  }
}

/** Checks the event against the registry and builds its batch statements, per kind. */
async function mutasiStatements(ctx: TenantCtx, input: MutasiInput, tail: MutasiTail): Promise<MutasiPlan> {
  switch (input.kind) {
    case "lahir":
      return { statements: await lahirStatements(ctx, input, tail) };
    case "meninggal":
      return meninggalStatements(ctx, input, tail);
    case "pindah_masuk":
      return { statements: await pindahMasukStatements(ctx, input, tail) };
    case "pindah_keluar":
      return pindahKeluarStatements(ctx, input, tail);
  }
}

/** `lahir`: a new member born on `date` on an active card. */
async function lahirStatements(ctx: TenantCtx, input: MutasiOf<"lahir">, { now, log, record }: MutasiTail) {
  checkNik(input.nik, { sex: input.sex, birthDate: input.date });
  const card = await activeCard(ctx, input.familyCardId);
  const memberId = newId();
  return [
    ctx.db.insert(familyMembers).values(
      memberValues(
        {
          name: input.name,
          nik: input.nik,
          sex: input.sex,
          relationship: input.relationship,
          birthDate: input.date,
          birthPlace: input.birthPlace,
          religion: input.religion,
          maritalStatus: "belum_kawin",
        },
        card.id,
        memberId,
        now,
      ),
    ),
    log(card.id, memberId, input.name),
    record(memberId),
  ];
}

/** `meninggal`: marks a living member dead, and the card `meninggal` when nobody on it is left alive. */
async function meninggalStatements(
  ctx: TenantCtx,
  input: MutasiOf<"meninggal">,
  { now, log, record }: MutasiTail,
) {
  const member = await rowById(ctx.db, familyMembers, input.memberId);
  if (!member) {
    throw new NotFound("Family member");
  }
  if (member.livingStatus === "meninggal") {
    throw new InvalidTransition(
      "This person is already recorded as deceased.",
      LIVING_NEXT[member.livingStatus],
    );
  }
  const othersAlive = await ctx.db.$count(
    familyMembers,
    and(
      eq(familyMembers.familyCardId, member.familyCardId),
      eq(familyMembers.livingStatus, "hidup"),
      ne(familyMembers.id, member.id),
    ),
  );
  const card = othersAlive === 0 ? await rowById(ctx.db, familyCards, member.familyCardId) : undefined;
  const departure = card?.status === "aktif" ? await departureOf(ctx, card) : undefined;
  return {
    statements: [
      ctx.db
        .update(familyMembers)
        .set({ livingStatus: "meninggal", deathDate: input.date, updatedAt: now })
        .where(and(eq(familyMembers.id, member.id), eq(familyMembers.livingStatus, "hidup"))),
      abortBatchUnless(ctx.db, familyMembers, member.id, eq(familyMembers.deathDate, input.date)),
      ...(othersAlive === 0
        ? [
            ctx.db
              .update(familyCards)
              .set({ status: "meninggal", statusDate: input.date, updatedAt: now })
              .where(and(eq(familyCards.id, member.familyCardId), eq(familyCards.status, "aktif"))),
          ]
        : []),
      ...(departure ? departureStatements(ctx, departure, now) : []),
      log(member.familyCardId, member.id, member.name, input.place),
      record(member.id),
    ],
    departure,
  };
}

/** Who and what a card's leaving touches: its people, and whether it leaves its unit empty. */
async function departureOf(ctx: TenantCtx, card: { id: string; unitId: string }): Promise<Departure> {
  const [people, others] = await Promise.all([
    ctx.db
      .select({ id: familyMembers.id })
      .from(familyMembers)
      .where(eq(familyMembers.familyCardId, card.id)),
    ctx.db.$count(
      familyCards,
      and(eq(familyCards.unitId, card.unitId), eq(familyCards.status, "aktif"), ne(familyCards.id, card.id)),
    ),
  ]);
  return {
    familyCardId: card.id,
    unitId: card.unitId,
    personIds: people.map((p) => p.id),
    wholeUnit: others === 0,
  };
}

/**
 * A departure's writes in the registry's batch: the house marked empty when nobody else lives there
 * (guarded: a card that arrived meanwhile aborts the batch), and the family's bills settled to its card.
 */
function departureStatements(ctx: TenantCtx, departure: Departure, now: string): BatchItem<"sqlite">[] {
  if (!departure.wholeUnit) {
    return [...settleBillsToFamily(ctx, { ...departure, wholeUnit: false })];
  }
  return [
    ctx.db.update(units).set({ occupancy: "kosong", updatedAt: now }).where(eq(units.id, departure.unitId)),
    abortBatchUnless(
      ctx.db,
      units,
      departure.unitId,
      sql`NOT EXISTS (SELECT 1 FROM ${familyCards} WHERE ${familyCards.unitId} = ${departure.unitId}
        AND ${familyCards.status} = 'aktif' AND ${familyCards.id} <> ${departure.familyCardId})`,
    ),
    ...settleBillsToFamily(ctx, { ...departure, wholeUnit: true }),
  ];
}

/** `pindah_masuk`: registers an arriving family with a new card on an existing unit. */
async function pindahMasukStatements(
  ctx: TenantCtx,
  input: MutasiOf<"pindah_masuk">,
  { now, log, record }: MutasiTail,
) {
  checkNewCard(input);
  if (!(await unitRef(ctx.db, input.unitId))) {
    throw new NotFound("Unit", "unit_not_found");
  }
  const cardId = newId();
  return [
    ...insertCardStatements(ctx.db, cardId, input, now),
    // An empty house is lived in again: its occupancy is the staff's to say anew (issue 45).
    ctx.db
      .update(units)
      .set({ occupancy: null, updatedAt: now })
      .where(and(eq(units.id, input.unitId), eq(units.occupancy, "kosong"))),
    log(cardId, null, input.headName, input.place),
    record(cardId),
  ];
}

/** `pindah_keluar`: marks an active card `pindah`, and the family leaves (see `Departure`). */
async function pindahKeluarStatements(
  ctx: TenantCtx,
  input: MutasiOf<"pindah_keluar">,
  { now, log, record }: MutasiTail,
) {
  const card = await activeCard(ctx, input.familyCardId);
  const departure = await departureOf(ctx, card);
  return {
    statements: [
      ctx.db
        .update(familyCards)
        .set({ status: "pindah", statusDate: input.date, updatedAt: now })
        .where(and(eq(familyCards.id, card.id), eq(familyCards.status, "aktif"))),
      abortBatchUnless(ctx.db, familyCards, card.id, eq(familyCards.statusDate, input.date)),
      ...departureStatements(ctx, departure, now),
      log(card.id, null, card.headName, input.place),
      record(card.id),
    ],
    departure,
  };
}

async function activeCard(ctx: TenantCtx, id: string) {
  const card = await rowById(ctx.db, familyCards, id);
  if (!card) {
    throw new NotFound("Family card");
  }
  if (card.status !== "aktif") {
    throw new InvalidTransition(
      `This family card is no longer active (${card.status}).`,
      CARD_NEXT[card.status],
    );
  }
  return card;
}

/** The log, newest recorded first; `from`/`to` are the Jakarta days the events happened on (inclusive). */
export async function listMutasi({ ctx, input }: { ctx: TenantCtx; input: MutasiListQuery }) {
  if (input.from && input.to && input.from > input.to) {
    throw new Invalid("invalid_range", "from must not be after to.", [
      { field: "from", message: "after to" },
    ]);
  }
  const filters: SQL[] = afterCursor(mutations.id, input.cursor, "desc");
  if (input.kind) {
    filters.push(eq(mutations.kind, input.kind));
  }
  if (input.from) {
    filters.push(gte(mutations.date, input.from));
  }
  if (input.to) {
    filters.push(lte(mutations.date, input.to));
  }
  if (input.familyCardId) {
    filters.push(eq(mutations.familyCardId, input.familyCardId));
  }
  const rows = await ctx.db
    .select()
    .from(mutations)
    .where(and(...filters))
    .orderBy(desc(mutations.id))
    .limit(input.limit + 1);
  return keysetPage(rows, input.limit);
}
