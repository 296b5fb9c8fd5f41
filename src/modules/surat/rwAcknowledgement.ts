import { and, desc, eq, isNotNull } from "drizzle-orm";
import { audit } from "../../core/audit";
import type { Role, TenantCtx } from "../../core/context";
import { afterCursor, keysetPage } from "../../core/db/paging";
import { DomainError, InvalidTransition, NotFound } from "../../core/errors";
import { requireUser } from "../../core/http/access";
import { newId } from "../../core/ids";
import { type ChildTenant, childTenants } from "../../core/tenancy/contexts";
import { jenisOf } from "./jenis";
import { changedMeanwhile, type LetterRow, letterEvent, unlessApplied } from "./letters";
import { notifyLetterStatus } from "./notify";
import type { RwAckListQuery } from "./schemas";
import { effectiveSettings, loadSettings } from "./settings";
import { letters } from "./tables";

/**
 * The RW's acknowledgement of its RTs' letters (issue 29, ADR 0030). A letter an RT finishes while it is
 * linked to an RW and its admin has turned `rwAcknowledgement` on (off by default, issue 44 P6) waits
 * in that RW's queue; the RW's admin or
 * sekretaris acknowledges it, which prints "Mengetahui, Ketua RW" with the RW head's name on a new PDF
 * version, or declines it with a reason, which gives it back to the RT (diproses). The RW reads its
 * RTs only through core's `childTenants` (linked means accepted), and only the letters sent to it.
 */
const RW_DUTIES: readonly Role[] = ["admin", "sekretaris"];

type LinkedRt = ChildTenant & { ctx: TenantCtx };

async function linkedRts(ctx: TenantCtx): Promise<LinkedRt[]> {
  const children = await childTenants(ctx, { duties: RW_DUTIES });
  // An RT that switched letters off (or is suspended) sends nothing to its RW.
  const lettered = children.filter((c): c is LinkedRt => c.ctx?.tenant.flags.surat === true);
  // Nor one whose admin has not turned the acknowledgement on (issue 44 P6): whatever its letters say,
  // the RW reads an RT's letters only while the RT's own setting says so.
  const on = await Promise.all(
    lettered.map(async (rt) => (await loadSettings(rt.ctx.db)).rwAcknowledgement === true),
  );
  return lettered.filter((_, i) => on[i]);
}

function present(rt: LinkedRt, row: LetterRow) {
  return {
    letterId: row.id,
    rt: { slug: rt.slug, name: rt.name },
    jenis: row.jenis,
    jenisName: jenisOf(row.jenis).name,
    nomorSurat: row.nomorSurat,
    tanggalSurat: row.tanggalSurat,
    subjectName: row.subjectName,
    keperluan: row.keperluan,
    signatory: row.issuedAs ? { name: row.issuedAs.headName, title: row.issuedAs.headTitle } : null,
    status: row.rwAckStatus ?? "menunggu",
    acknowledgedBy: row.rwAckName,
    acknowledgedAt: row.rwAckAt,
    reason: row.rwAckNote,
    finishedAt: row.finishedAt,
  };
}

/** The queue (or what was acknowledged or declined), newest first across every linked RT. */
export async function listRwAcknowledgements({ ctx, input }: { ctx: TenantCtx; input: RwAckListQuery }) {
  const rts = await linkedRts(ctx);
  const pages = await Promise.all(
    rts.map(async (rt) => {
      const rows = await rt.ctx.db
        .select()
        .from(letters)
        .where(and(eq(letters.rwAckStatus, input.status), ...afterCursor(letters.id, input.cursor, "desc")))
        .orderBy(desc(letters.id))
        .limit(input.limit + 1);
      return rows.map((row) => ({ id: row.id, rt, row }));
    }),
  );
  // Each RT gave its newest `limit + 1` after the cursor: the merged newest `limit + 1` are among them.
  const merged = pages.flat().sort((a, b) => (a.id < b.id ? 1 : a.id > b.id ? -1 : 0));
  const page = keysetPage(merged, input.limit);
  return { items: page.items.map(({ rt, row }) => present(rt, row)), nextCursor: page.nextCursor };
}

/** A letter one of the caller's RTs sent to it; anything else (another RW's, an RT's own) is 404. */
async function queuedLetter(ctx: TenantCtx, id: string): Promise<{ rt: LinkedRt; row: LetterRow }> {
  if (ctx.tenant.type !== "RW") {
    // An RT has no queue: its staff cannot acknowledge, and its letters are not found here.
    throw new NotFound("Letter");
  }
  for (const rt of await linkedRts(ctx)) {
    const row = await rt.ctx.db
      .select()
      .from(letters)
      .where(and(eq(letters.id, id), isNotNull(letters.rwAckStatus)))
      .get();
    if (row) {
      return { rt, row };
    }
  }
  throw new NotFound("Letter");
}

/** The RW head as printed under "Mengetahui": the RW's own letter settings (or its admin). */
async function rwSignatory(ctx: TenantCtx) {
  const settings = await effectiveSettings(ctx);
  const missing = settings.missing.filter((m) => m === "rw" || m === "headName");
  if (missing.length || !settings.headName) {
    throw new DomainError(
      "conflict",
      "letter_settings_incomplete",
      `The RW's letter settings lack ${missing.join(", ")}: the RW admin sets them at PUT /api/surat/settings.`,
      { errors: missing.map((field) => ({ field, message: "not set" })) },
    );
  }
  return { name: settings.headName, title: settings.headTitle };
}

function requireWaiting(row: LetterRow) {
  if (row.status !== "selesai" || row.rwAckStatus !== "menunggu") {
    // The RW's moves are from menunggu only: a letter no longer waiting has none left for the RW.
    throw new InvalidTransition(
      `This letter is not waiting for the RW (it is ${row.rwAckStatus === "menunggu" ? row.status : row.rwAckStatus}).`,
      [],
    );
  }
}

/**
 * One guarded write in the RT's database: the letter (compare-and-set on its revision), its history
 * line and the audit record naming the RW member, in one batch. The RT's context acts as `system`; the
 * history and the audit name the RW member who acted.
 */
async function writeInRt(
  ctx: TenantCtx,
  rt: LinkedRt,
  row: LetterRow,
  change: { set: Partial<LetterRow>; event: string; note: string | null; action: string },
) {
  const recorder: TenantCtx = { ...rt.ctx, actor: ctx.actor };
  const eventId = newId();
  await rt.ctx.db
    .batch([
      rt.ctx.db
        .update(letters)
        .set({ ...change.set, revision: row.revision + 1, updatedAt: ctx.now().toISOString() })
        .where(and(eq(letters.id, row.id), eq(letters.revision, row.revision))),
      unlessApplied(rt.ctx, row.id),
      letterEvent(recorder, { id: eventId, letterId: row.id, status: change.event, note: change.note }),
      audit(recorder, {
        action: change.action,
        targetType: "letter",
        targetId: row.id,
        detail: { rw: ctx.tenant.slug, from: row.rwAckStatus, to: change.set.rwAckStatus },
      }),
    ])
    .catch(changedMeanwhile);
  const updated = await rt.ctx.db.select().from(letters).where(eq(letters.id, row.id)).get();
  if (!updated) {
    throw new Error("letter vanished after the RW's write");
  }
  return { updated, eventId };
}

/** Mengetahui: a new PDF version with the RW head's name and the date; the resident is told. */
export async function acknowledgeLetter({ ctx, id }: { ctx: TenantCtx; id: string }) {
  const { rt, row } = await queuedLetter(ctx, id);
  requireWaiting(row);
  const signer = await rwSignatory(ctx);
  const { updated, eventId } = await writeInRt(ctx, rt, row, {
    set: {
      rwAckStatus: "diketahui",
      rwAckBy: requireUser(ctx).userId,
      rwAckName: signer.name,
      rwAckTitle: signer.title,
      rwAckAt: ctx.now().toISOString(),
      rwAckNote: null,
      // What is printed changes: a new version, so the stored PDF without the block is never served again.
      pdfVersion: row.pdfVersion + 1,
    },
    event: "diketahui_rw",
    note: null,
    action: "surat.rw.diketahui",
  });
  await notifyLetterStatus(rt.ctx, updated, eventId);
  return present(rt, updated);
}

/**
 * Declined: the letter goes back to the RT (diproses, no longer verifiable) with the RW's reason; the RT
 * corrects it and finishes it again, which sends it to the RW once more.
 */
export async function declineLetter({
  ctx,
  id,
  input,
}: {
  ctx: TenantCtx;
  id: string;
  input: { reason: string };
}) {
  const { rt, row } = await queuedLetter(ctx, id);
  requireWaiting(row);
  const { updated } = await writeInRt(ctx, rt, row, {
    set: {
      status: "diproses",
      verificationCode: null,
      rwAckStatus: "ditolak",
      rwAckBy: requireUser(ctx).userId,
      rwAckName: null,
      rwAckTitle: null,
      rwAckAt: ctx.now().toISOString(),
      rwAckNote: input.reason,
      pdfVersion: row.pdfVersion + 1,
    },
    event: "ditolak_rw",
    note: input.reason,
    action: "surat.rw.ditolak",
  });
  return present(rt, updated);
}
