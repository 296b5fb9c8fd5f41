import { and, eq, inArray } from "drizzle-orm";
import { audit } from "../../core/audit";
import type { TenantCtx } from "../../core/context";
import { isBatchAborted } from "../../core/db/errors";
import { Conflict, Invalid, InvalidTransition, NotFound } from "../../core/errors";
import { requireUser } from "../../core/http/access";
import { newId } from "../../core/ids";
import { membershipIn, requireCompleteProfile } from "../identity/service";
import { householdMembers, personById } from "../kependudukan/service";
import { requireRegistryRecord } from "./identity";
import { type JenisDef, jenisOf } from "./jenis";
import { validateFields } from "./jenis-fields";
import {
  changedMeanwhile,
  getLetter,
  type LetterRow,
  letterEvent,
  loadLetter,
  unlessApplied,
} from "./letters";
import type { CreateLetterInput, ResubmitLetterInput } from "./schemas";
import { type LetterStatus, letterEvents, letters } from "./tables";

/** Whom a letter "for myself" names: the caller's account, as linked to their own registry person. */
async function ownPerson(ctx: TenantCtx, personId: string | null) {
  const person = personId ? await personById({ ctx, id: personId }) : undefined;
  if (!person) {
    // No name matching: a namesake on another card must never be taken for the caller.
    throw new Conflict(
      "person_not_linked",
      personId
        ? "Your account is linked to a family-card entry that is no longer active. Ask the secretariat to link your account to your entry on your family card, or request the letter for a member of your household."
        : "Your account is not yet linked to your entry on a family card. Ask the secretariat to link it, or request the letter for a member of your household.",
    );
  }
  return person;
}

/**
 * The validated fields and the letter's subject (the person it is for, and the name printed), with
 * every member id checked against the household. `self` is the caller's own linked person; the letter
 * stores that person's id, so it names the same person whatever the link becomes later. The subject's
 * registry person must hold every particular the type prints (409 `registry_record_required`).
 */
async function checkRequest(
  ctx: TenantCtx,
  def: JenisDef,
  profile: { unitId: string; personId: string | null },
  input: { onBehalfOf: string; fields: unknown },
) {
  const checked = validateFields(def, input.fields);
  if (!checked.ok) {
    throw new Invalid("invalid_fields", `Invalid fields for ${def.code}.`, checked.errors);
  }
  const fields = checked.value;
  const memberIds = def.fields.flatMap((field) => {
    const value = fields[field.name];
    return field.type === "member" && typeof value === "string"
      ? [value]
      : field.type === "members" && Array.isArray(value)
        ? (value as string[])
        : [];
  });
  const forSelf = input.onBehalfOf === "self" || input.onBehalfOf === profile.personId;
  const needsHousehold = !forSelf || memberIds.length > 0;
  const household = needsHousehold ? await householdMembers({ ctx, id: profile.unitId }) : [];
  const byId = new Map(household.map((m) => [m.id, m]));
  for (const id of [...(forSelf ? [] : [input.onBehalfOf]), ...memberIds]) {
    if (!byId.has(id)) {
      // Another household's person is "not yours": 404, as for any object of someone else.
      throw new NotFound("Household member", "household_member_not_found");
    }
  }
  const subject = forSelf ? await ownPerson(ctx, profile.personId) : byId.get(input.onBehalfOf);
  if (subject) {
    requireRegistryRecord(def, subject);
  }
  return { fields, onBehalfOf: subject?.id ?? input.onBehalfOf, subjectName: subject?.name ?? "" };
}

export async function createLetter({ ctx, input }: { ctx: TenantCtx; input: CreateLetterInput }) {
  const residentId = requireUser(ctx).userId;
  const profile = await requireCompleteProfile({ ctx });
  const { unitId } = profile;
  const def = jenisOf(input.jenis);
  const { fields, onBehalfOf, subjectName } = await checkRequest(ctx, def, profile, input);
  const id = newId();
  const now = ctx.now().toISOString();
  await ctx.db.batch([
    ctx.db.insert(letters).values({
      id,
      residentId,
      unitId,
      jenis: def.code,
      onBehalfOf,
      subjectName,
      keperluan: input.keperluan,
      fields,
      status: "diajukan",
      createdAt: now,
      updatedAt: now,
    }),
    ctx.db.insert(letterEvents).values({
      id: newId(),
      letterId: id,
      status: "diajukan",
      note: null,
      actorId: residentId,
      createdAt: now,
    }),
  ]);
  return getLetter({ ctx, id });
}

/** perlu_perbaikan → diajukan: the resident corrects what staff asked for and sends it again. */
export async function resubmitLetter({
  ctx,
  id,
  input,
}: {
  ctx: TenantCtx;
  id: string;
  input: ResubmitLetterInput;
}) {
  const row = await loadLetter(ctx, id);
  if (row.residentId !== requireUser(ctx).userId) {
    throw new NotFound("Letter");
  }
  if (row.status !== "perlu_perbaikan") {
    throw new InvalidTransition(
      "Only a letter sent back for correction can be resubmitted.",
      RESIDENT_NEXT[row.status],
    );
  }
  const personId = (await membershipIn({ ctx }))?.personId ?? null;
  const { fields, onBehalfOf, subjectName } = await checkRequest(
    ctx,
    jenisOf(row.jenis),
    { unitId: row.unitId, personId },
    { onBehalfOf: input.onBehalfOf ?? row.onBehalfOf, fields: input.fields ?? row.fields },
  );
  await casWrite(ctx, row, "diajukan", null, {
    onBehalfOf,
    subjectName,
    keperluan: input.keperluan ?? row.keperluan,
    fields,
    pdfVersion: row.pdfVersion + 1,
  });
  return getLetter({ ctx, id });
}

const CANCELLABLE: LetterStatus[] = ["diajukan", "diproses", "perlu_perbaikan"];

/** The resident's own moves from each state: what their state conflicts name as allowed next. */
const RESIDENT_NEXT: Record<LetterStatus, LetterStatus[]> = {
  diajukan: ["dibatalkan"],
  diproses: ["dibatalkan"],
  perlu_perbaikan: ["diajukan", "dibatalkan"],
  selesai: [],
  ditolak: [],
  dibatalkan: [],
};

export async function cancelLetter({
  ctx,
  id,
  input,
}: {
  ctx: TenantCtx;
  id: string;
  input: { reason?: string };
}) {
  const row = await loadLetter(ctx, id);
  if (row.residentId !== requireUser(ctx).userId) {
    throw new NotFound("Letter");
  }
  if (!CANCELLABLE.includes(row.status)) {
    throw new InvalidTransition(
      `A letter that is ${row.status} can no longer be cancelled.`,
      RESIDENT_NEXT[row.status],
    );
  }
  await casWrite(ctx, row, "dibatalkan", input.reason ?? null, {});
  return getLetter({ ctx, id });
}

/**
 * A member leaves the community (members module): their letter requests not yet finished are cancelled
 * (the resident's own cancel move, made by the admin who removed them, with the history line and an
 * audit record). One batch for all of them, each UPDATE compare-and-set on its revision; a letter staff
 * moved meanwhile aborts it and the open letters are read again. Idempotent. Returns how many.
 */
export async function cancelLettersOf({ ctx, userId }: { ctx: TenantCtx; userId: string }): Promise<number> {
  const note = "Pemohon tidak lagi menjadi anggota komunitas.";
  for (let attempt = 0; attempt < 3; attempt++) {
    const open = await ctx.db
      .select()
      .from(letters)
      .where(and(eq(letters.residentId, userId), inArray(letters.status, CANCELLABLE)));
    const [first, ...rest] = open.flatMap((row) => [
      ctx.db
        .update(letters)
        .set({ status: "dibatalkan", revision: row.revision + 1, updatedAt: ctx.now().toISOString() })
        .where(and(eq(letters.id, row.id), eq(letters.revision, row.revision))),
      unlessApplied(ctx, row.id),
      letterEvent(ctx, { letterId: row.id, status: "dibatalkan", note }),
      audit(ctx, {
        action: "surat.dibatalkan",
        targetType: "letter",
        targetId: row.id,
        detail: { from: row.status, to: "dibatalkan", reason: "member_removed" },
      }),
    ]);
    if (!first) {
      return 0;
    }
    try {
      await ctx.db.batch([first, ...rest]);
      return open.length;
    } catch (error) {
      if (!isBatchAborted(error)) {
        throw error;
      }
    }
  }
  throw new Conflict("invalid_transition", "The member's letters keep changing; try the removal again.");
}

/** A resident's write: compare-and-set on the revision plus its history line, in one batch. */
async function casWrite(
  ctx: TenantCtx,
  row: LetterRow,
  status: LetterStatus,
  note: string | null,
  set: Partial<LetterRow>,
) {
  await ctx.db
    .batch([
      ctx.db
        .update(letters)
        .set({ ...set, status, revision: row.revision + 1, updatedAt: ctx.now().toISOString() })
        .where(and(eq(letters.id, row.id), eq(letters.revision, row.revision))),
      unlessApplied(ctx, row.id),
      letterEvent(ctx, { letterId: row.id, status, note }),
    ])
    .catch(changedMeanwhile);
}
