import { and, eq } from "drizzle-orm";
import type { BatchItem } from "drizzle-orm/batch";
import { audit } from "../../core/audit";
import type { TenantCtx } from "../../core/context";
import { isUniqueViolation } from "../../core/db/errors";
import { Conflict, Invalid } from "../../core/errors";
import { requireUser } from "../../core/http/access";
import { newId, randomToken } from "../../core/ids";
import { jakartaDay } from "../../core/time";
import { personById } from "../kependudukan/service";
import { requireRegistryRecord } from "./identity";
import { jenisOf } from "./jenis";
import { notifyLetterStatus } from "./notify";
import { sequenceOf } from "./numberFormat";
import { bumpSequence } from "./numbering";
import type { UpdateLetterInput } from "./schemas";
import {
  changedMeanwhile,
  getLetter,
  type LetterRow,
  letterEvent,
  loadLetter,
  unlessApplied,
} from "./service";
import { effectiveSettings, issuedAs } from "./settings";
import { type LetterStatus, letters } from "./tables";

/**
 * Staff moves: diajukan → diproses → selesai; diajukan|diproses → perlu_perbaikan (the resident
 * corrects and resubmits) or ditolak. The resident's own moves (resubmit, cancel) live in service.ts.
 */
const NEXT: Record<LetterStatus, LetterStatus[]> = {
  diajukan: ["diproses", "perlu_perbaikan", "ditolak"],
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
    throw new Conflict(
      "invalid_transition",
      changing
        ? `A letter that is ${current.status} cannot become ${target}.`
        : `A letter that is ${current.status} cannot be edited.`,
    );
  }
  if (changing && (target === "ditolak" || target === "perlu_perbaikan") && !input.note) {
    throw new Invalid("note_required", "Say why, so the resident knows what to do.", [
      { field: "note", message: "required for ditolak and perlu_perbaikan" },
    ]);
  }
  const nomorSurat = input.nomorSurat ?? current.nomorSurat;
  const tanggalSurat = input.tanggalSurat ?? current.tanggalSurat;
  if (target === "selesai" && (!nomorSurat || !tanggalSurat)) {
    throw new Conflict("letter_number_required", "A finished letter needs its number and date.");
  }
  const finishing = changing && target === "selesai";
  const printed = nomorSurat !== current.nomorSurat || tanggalSurat !== current.tanggalSurat || finishing;
  const settings = finishing || nomorSurat !== current.nomorSurat ? await effectiveSettings(ctx) : null;
  if (finishing) {
    await requireSubjectRecord(ctx, current);
  }
  // The letterhead and signatory are fixed when the letter is finished (letter_settings_incomplete first).
  const issued = finishing && settings ? issuedAs(ctx, settings) : current.issuedAs;
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
      issuedAs: issued,
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
      throw new Conflict(
        "letter_number_taken",
        `Letter number ${nomorSurat} is already used in this community.`,
      );
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
