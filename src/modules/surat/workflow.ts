import { and, eq } from "drizzle-orm";
import type { BatchItem } from "drizzle-orm/batch";
import { audit } from "../../core/audit";
import type { TenantCtx } from "../../core/context";
import { isUniqueViolation } from "../../core/db/errors";
import { Conflict, Invalid, InvalidTransition } from "../../core/errors";
import { requireUser } from "../../core/http/access";
import { newId, randomToken } from "../../core/ids";
import { jakartaDay } from "../../core/time";
import { userNames } from "../identity/service";
import { personById } from "../kependudukan/service";
import { requireRegistryRecord } from "./identity";
import { jenisOf } from "./jenis";
import {
  changedMeanwhile,
  getLetter,
  type LetterRow,
  letterEvent,
  loadLetter,
  unlessApplied,
} from "./letters";
import { notifyLetterStatus } from "./notify";
import { sequenceOf } from "./numberFormat";
import { bumpSequence, suggestedNumber } from "./numbering";
import type { UpdateLetterInput } from "./schemas";
import { type Effective, effectiveSettings, issuedAs } from "./settings";
import { type LetterStatus, letters } from "./tables";

/**
 * Staff moves: diajukan → (diproses →) selesai; diajukan|diproses → perlu_perbaikan (the resident
 * corrects and resubmits) or ditolak. The resident's own moves (resubmit, cancel) live in requests.ts.
 */
const NEXT: Record<LetterStatus, LetterStatus[]> = {
  // Straight to selesai as well (issue 45): a simple letter needs no separate "being processed" step.
  diajukan: ["diproses", "selesai", "perlu_perbaikan", "ditolak"],
  diproses: ["selesai", "perlu_perbaikan", "ditolak"],
  perlu_perbaikan: [],
  selesai: [],
  ditolak: [],
  dibatalkan: [],
};
/** States in which staff may edit the number, date or note without moving the letter. */
const EDITABLE: LetterStatus[] = ["diajukan", "diproses", "selesai"];
const NOTIFIED: LetterStatus[] = ["perlu_perbaikan", "ditolak", "selesai"];

/**
 * The RW's acknowledgement after a staff write (ADR 0030): finishing puts the letter in the linked RW's
 * queue when the RT has it on; a finished letter whose printed number or date changes after the RW
 * acknowledged it waits again, since the RW acknowledged what it read.
 */
function rwAckAfter(
  current: LetterRow,
  change: { finishing: boolean; printed: boolean; waits: boolean },
): Partial<LetterRow> {
  const fresh = { rwAckBy: null, rwAckName: null, rwAckTitle: null, rwAckAt: null, rwAckNote: null };
  if (change.finishing) {
    return change.waits ? { rwAckStatus: "menunggu", ...fresh } : { rwAckStatus: null, ...fresh };
  }
  if (change.printed && current.rwAckStatus === "diketahui") {
    return { rwAckStatus: "menunggu", ...fresh };
  }
  return {};
}

/** The subject's registry person still holds what the letter prints (it may have changed since the request). */
async function requireSubjectRecord(ctx: TenantCtx, row: LetterRow) {
  const person = await personById({ ctx, id: row.onBehalfOf });
  if (person) {
    requireRegistryRecord(jenisOf(row.jenis), person);
  }
}

export async function updateLetter({
  ctx,
  id,
  input,
}: {
  ctx: TenantCtx;
  id: string;
  input: UpdateLetterInput;
}) {
  const current = await loadLetter(ctx, id);
  const changing = input.status !== undefined && input.status !== current.status;
  const target: LetterStatus = input.status ?? current.status;
  if (changing ? !NEXT[current.status].includes(target) : !EDITABLE.includes(current.status)) {
    throw new InvalidTransition(
      changing
        ? `A letter that is ${current.status} cannot become ${target}.`
        : `A letter that is ${current.status} cannot be edited.`,
      NEXT[current.status],
    );
  }
  if (changing && (target === "ditolak" || target === "perlu_perbaikan") && !input.note) {
    throw new Invalid("note_required", "Say why, so the resident knows what to do.", [
      { field: "note", message: "required for ditolak and perlu_perbaikan" },
    ]);
  }
  const finishing = changing && target === "selesai";
  // Finishing dates the letter today unless staff chose a date, and numbers it with the number
  // next-number suggests unless staff typed one (issue 45): no copying the number by hand.
  const tanggalSurat =
    input.tanggalSurat ?? current.tanggalSurat ?? (finishing ? jakartaDay(ctx.now()) : null);
  const assigning = finishing && !input.nomorSurat && !current.nomorSurat;
  const typed = input.nomorSurat ?? current.nomorSurat;
  const numbered = assigning || (typed !== null && typed !== current.nomorSurat);
  const settings = finishing || numbered ? await effectiveSettings(ctx) : null;
  if (finishing) {
    await requireSubjectRecord(ctx, current);
  }
  // The letterhead and signatory are fixed when the letter is finished (letter_settings_incomplete first).
  const issued = finishing && settings ? issuedAs(ctx, settings) : current.issuedAs;
  // An assigned number another finish took meanwhile is not the staff's mistake: take the next one.
  for (let attempt = 1; ; attempt++) {
    const nomorSurat =
      assigning && settings && tanggalSurat
        ? (await suggestedNumber(ctx, settings, current.jenis, tanggalSurat)).nomorSurat
        : typed;
    if (target === "selesai" && (!nomorSurat || !tanggalSurat)) {
      throw new Conflict("letter_number_required", "A finished letter needs its number and date.");
    }
    try {
      return await writeUpdate(ctx, current, input, {
        changing,
        finishing,
        target,
        nomorSurat,
        tanggalSurat,
        issued,
        settings,
      });
    } catch (error) {
      if (!(assigning && attempt < 5 && error instanceof NumberTaken)) {
        throw error instanceof NumberTaken
          ? new Conflict(
              "letter_number_taken",
              `Letter number ${nomorSurat} is already used in this community.`,
            )
          : error;
      }
    }
  }
}

/** The UNIQUE index refused the number: a typed one is the staff's to change, an assigned one is retried. */
class NumberTaken extends Error {}

async function writeUpdate(
  ctx: TenantCtx,
  current: LetterRow,
  input: UpdateLetterInput,
  w: {
    changing: boolean;
    finishing: boolean;
    target: LetterStatus;
    nomorSurat: string | null;
    tanggalSurat: string | null;
    issued: LetterRow["issuedAs"];
    settings: Effective | null;
  },
) {
  const { changing, finishing, target, nomorSurat, tanggalSurat, settings } = w;
  const id = current.id;
  const printed = nomorSurat !== current.nomorSurat || tanggalSurat !== current.tanggalSurat || finishing;
  const now = ctx.now().toISOString();
  const eventId = newId();
  const update = ctx.db
    .update(letters)
    .set({
      status: target,
      nomorSurat,
      tanggalSurat,
      note: input.note ?? current.note,
      // Unguessable and self-locating (tenant slug first): the public page needs no platform table.
      verificationCode:
        target === "selesai" ? (current.verificationCode ?? `${ctx.tenant.slug}.${randomToken(16)}`) : null,
      revision: current.revision + 1,
      pdfVersion: printed ? current.pdfVersion + 1 : current.pdfVersion,
      decidedBy: requireUser(ctx).userId,
      finishedAt: finishing ? now : current.finishedAt,
      issuedAs: w.issued,
      ...rwAckAfter(current, { finishing, printed, waits: settings?.rwAcknowledgement ?? false }),
      updatedAt: now,
    })
    .where(and(eq(letters.id, id), eq(letters.revision, current.revision)))
    .returning();
  // The guard right after the update: what follows is written only if this write won.
  const recorded: BatchItem<"sqlite">[] = [
    unlessApplied(ctx, id),
    letterEvent(ctx, {
      id: eventId,
      letterId: id,
      status: changing ? target : "diubah",
      note: input.note ?? null,
    }),
    audit(ctx, {
      action: changing ? `surat.${target}` : "surat.update",
      targetType: "letter",
      targetId: id,
      detail: { from: current.status, to: target, nomorSurat },
    }),
  ];
  if (nomorSurat && nomorSurat !== current.nomorSurat && settings) {
    const year = Number((tanggalSurat ?? jakartaDay(ctx.now())).slice(0, 4));
    const seq = sequenceOf(settings.numberFormat, nomorSurat, year, settings.rt, settings.rw);
    if (seq !== null) {
      recorded.push(bumpSequence(ctx.db, year, seq));
    }
  }
  let rows: LetterRow[];
  try {
    [rows] = await ctx.db.batch([update, ...recorded]);
  } catch (error) {
    // The UNIQUE index is the guard: two staff using one number at once cannot both succeed.
    if (isUniqueViolation(error, "letters.nomor_surat")) {
      throw new NumberTaken();
    }
    changedMeanwhile(error);
  }
  const row = rows[0];
  if (!row) {
    throw new Error("letter update applied but returned no row");
  }
  if (changing && NOTIFIED.includes(target)) {
    await notifyLetterStatus(ctx, row, eventId);
  }
  return getLetter({ ctx, id });
}

/**
 * The RT issues a finished letter without the RW's acknowledgement (issue 45): the RW has not answered
 * and the resident needs the letter. Recorded on the letter (who, when, why), in its history and the
 * audit log; the letter leaves the RW's queue, the resident gets the PDF and is told it is ready.
 */
export async function issueWithoutRw({
  ctx,
  id,
  input,
}: {
  ctx: TenantCtx;
  id: string;
  input: { reason: string };
}) {
  const current = await loadLetter(ctx, id);
  if (current.status !== "selesai" || current.rwAckStatus !== "menunggu") {
    throw new InvalidTransition(
      `Only a finished letter waiting for the RW can be issued without it (this one is ${current.status}${current.rwAckStatus ? `, RW ${current.rwAckStatus}` : ""}).`,
      current.status === "selesai" ? [] : NEXT[current.status],
    );
  }
  const by = requireUser(ctx).userId;
  const name = (await userNames({ ctx, ids: [by] })).get(by) ?? null;
  const now = ctx.now().toISOString();
  const eventId = newId();
  const [rows] = await ctx.db
    .batch([
      ctx.db
        .update(letters)
        .set({
          rwAckStatus: "tanpa_rw",
          rwAckBy: by,
          rwAckName: name,
          rwAckTitle: null,
          rwAckAt: now,
          rwAckNote: input.reason,
          revision: current.revision + 1,
          updatedAt: now,
        })
        .where(and(eq(letters.id, id), eq(letters.revision, current.revision)))
        .returning(),
      unlessApplied(ctx, id),
      letterEvent(ctx, { id: eventId, letterId: id, status: "terbit_tanpa_rw", note: input.reason }),
      audit(ctx, {
        action: "surat.tanpa_rw",
        targetType: "letter",
        targetId: id,
        detail: { from: "menunggu", to: "tanpa_rw" },
      }),
    ])
    .catch(changedMeanwhile);
  const row = rows[0];
  if (!row) {
    throw new Error("letter update applied but returned no row");
  }
  await notifyLetterStatus(ctx, row, eventId);
  return getLetter({ ctx, id });
}
