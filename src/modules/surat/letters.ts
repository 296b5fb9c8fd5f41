/**
 * A letter as the module keeps and shows it: its row, who works it, the compare-and-set guard, its
 * presentation and history line, and the reads. Requests and cancellations are in requests.ts, the staff's
 * workflow in workflow.ts.
 */
import { and, asc, count, desc, eq, inArray, type SQL, sql } from "drizzle-orm";
import type { TenantCtx } from "../../core/context";
import { abortBatchUnless, isBatchAborted } from "../../core/db/errors";
import { afterCursor, jakartaDayFilters, keysetPage, type ListQuery } from "../../core/db/paging";
import { noteRowVersion, rowById } from "../../core/db/rows";
import { Conflict, NotFound } from "../../core/errors";
import { hasRole, ROLES, requireUser } from "../../core/http/access";
import { newId } from "../../core/ids";
import { userNames } from "../identity/service";
import { JENIS, jenisOf } from "./jenis";
import { presentJenis } from "./jenis-fields";
import type { LetterListQuery } from "./schemas";
import { letterEvents, letters } from "./tables";

export type LetterRow = typeof letters.$inferSelect;

/** Letters are worked by the staff (spec: S, every duty), the same roles as the routes. */
export const isLetterStaff = (ctx: TenantCtx) => hasRole(ctx, ROLES.STAFF);

/**
 * The guard a compare-and-set write puts right after its UPDATE: `changes()` is the row count of that
 * statement, so a lost race aborts the whole batch and leaves no history line or audit record behind.
 * (The new revision alone cannot tell: a concurrent winner from the same base sets the same value.)
 */
export function unlessApplied(ctx: TenantCtx, id: string) {
  return abortBatchUnless(ctx.db, letters, id, sql`changes() = 1`);
}

/** A lost compare-and-set race, as the client sees it. */
export function changedMeanwhile(error: unknown): never {
  if (isBatchAborted(error)) {
    throw new Conflict("invalid_transition", "This letter changed meanwhile; reload it and try again.");
  }
  throw error;
}

/**
 * A finished letter the linked RW has not acknowledged yet (issue 45): the resident gets its PDF and the
 * news that it is ready only once the RW acknowledged it or the RT issued it without the RW; staff may
 * read the PDF meanwhile.
 */
export const awaitingRw = (row: LetterRow) => row.status === "selesai" && row.rwAckStatus === "menunggu";

export function presentLetter(
  ctx: TenantCtx,
  row: LetterRow,
  opts: { residentName?: string | null; history?: (typeof letterEvents.$inferSelect)[] } = {},
) {
  const code = row.status === "selesai" ? row.verificationCode : null;
  return {
    id: row.id,
    jenis: row.jenis,
    jenisName: jenisOf(row.jenis).name,
    residentId: row.residentId,
    ...(opts.residentName === undefined ? {} : { residentName: opts.residentName }),
    onBehalfOf: row.onBehalfOf,
    subjectName: row.subjectName,
    keperluan: row.keperluan,
    fields: row.fields,
    status: row.status,
    nomorSurat: row.nomorSurat,
    tanggalSurat: row.tanggalSurat,
    note: row.note,
    verificationCode: code,
    verificationUrl: code ? verificationUrl(ctx, code) : null,
    pdfAvailable:
      row.status === "selesai" &&
      Boolean(row.nomorSurat && row.tanggalSurat) &&
      (!awaitingRw(row) || isLetterStaff(ctx)),
    awaitingRw: awaitingRw(row),
    pdfVersion: row.pdfVersion,
    rwAcknowledgement: row.rwAckStatus
      ? {
          status: row.rwAckStatus,
          name: row.rwAckName,
          title: row.rwAckTitle,
          at: row.rwAckAt,
          reason: row.rwAckNote,
        }
      : null,
    ...(opts.history
      ? {
          history: opts.history.map((e) => ({
            status: e.status,
            note: e.note,
            byStaff: e.actorId !== row.residentId,
            createdAt: e.createdAt,
          })),
        }
      : {}),
    createdAt: row.createdAt,
    updatedAt: row.updatedAt,
  };
}

export function verificationUrl(ctx: Pick<TenantCtx, "config">, code: string): string {
  return `${ctx.config.APP_URL.replace(/\/$/, "")}/verify/surat/${encodeURIComponent(code)}`;
}

/** Fetch-or-404: residents reach only their own letters; letter staff reach all of the tenant's. */
export async function loadLetter(ctx: TenantCtx, id: string): Promise<LetterRow> {
  const row = await rowById(ctx.db, letters, id);
  if (!row || (!isLetterStaff(ctx) && row.residentId !== requireUser(ctx).userId)) {
    throw new NotFound("Letter");
  }
  return row;
}

/** A history line; it rides in the batch of the write it records, after that write's guard. */
export function letterEvent(
  ctx: TenantCtx,
  e: { id?: string; letterId: string; status: string; note: string | null },
) {
  return ctx.db.insert(letterEvents).values({
    id: e.id ?? newId(),
    letterId: e.letterId,
    status: e.status,
    note: e.note,
    actorId: requireUser(ctx).userId,
    createdAt: ctx.now().toISOString(),
  });
}

/** A letter's row by id, for a batch with the request's other reads; `seenLetter` checks it. */
export const letterQuery = (ctx: TenantCtx, id: string) =>
  ctx.db.select().from(letters).where(eq(letters.id, id));

/** A letter's history of moves, oldest first. */
export const historyQuery = (ctx: TenantCtx, id: string) =>
  ctx.db.select().from(letterEvents).where(eq(letterEvents.letterId, id)).orderBy(asc(letterEvents.id));

/**
 * A letter read by `letterQuery`, as `loadLetter` gives it: its version noted for the ETag (as
 * `rowById` notes it), 404 unless the reader is staff or its requester.
 */
export function seenLetter(ctx: TenantCtx, id: string, row: LetterRow | undefined): LetterRow {
  noteRowVersion(ctx.db, letters, id, row);
  if (!row || (!isLetterStaff(ctx) && row.residentId !== requireUser(ctx).userId)) {
    throw new NotFound("Letter");
  }
  return row;
}

/** A letter and its history of moves, one batch; 404 as `loadLetter`. */
export async function letterAndHistory(ctx: TenantCtx, id: string) {
  const [[row], history] = await ctx.db.batch([letterQuery(ctx, id), historyQuery(ctx, id)]);
  return { row: seenLetter(ctx, id, row), history };
}

export async function getLetter({ ctx, id }: { ctx: TenantCtx; id: string }) {
  const { row, history } = await letterAndHistory(ctx, id);
  const residentName = isLetterStaff(ctx)
    ? ((await userNames({ ctx, ids: [row.residentId] })).get(row.residentId) ?? null)
    : undefined;
  return presentLetter(ctx, row, { history, residentName });
}

export async function listMyLetters({ ctx, input }: { ctx: TenantCtx; input: ListQuery }) {
  const rows = await ctx.db
    .select()
    .from(letters)
    .where(
      and(eq(letters.residentId, requireUser(ctx).userId), ...afterCursor(letters.id, input.cursor, "desc")),
    )
    .orderBy(desc(letters.id))
    .limit(input.limit + 1);
  const page = keysetPage(rows, input.limit);
  return { items: page.items.map((row) => presentLetter(ctx, row)), nextCursor: page.nextCursor };
}

export async function listLetters({ ctx, input }: { ctx: TenantCtx; input: LetterListQuery }) {
  const filters: SQL[] = [
    ...afterCursor(letters.id, input.cursor, "desc"),
    ...(input.status ? [eq(letters.status, input.status)] : []),
    ...(input.jenis ? [eq(letters.jenis, input.jenis)] : []),
    ...jakartaDayFilters(letters.createdAt, input.from, input.to),
  ];
  const rows = await ctx.db
    .select()
    .from(letters)
    .where(and(...filters))
    .orderBy(desc(letters.id))
    .limit(input.limit + 1);
  const page = keysetPage(rows, input.limit);
  const names = await userNames({ ctx, ids: page.items.map((r) => r.residentId) });
  return {
    items: page.items.map((row) =>
      presentLetter(ctx, row, { residentName: names.get(row.residentId) ?? null }),
    ),
    nextCursor: page.nextCursor,
  };
}

/** Dashboard indicator: letters awaiting processing (submitted or being processed), as one query. */
export function lettersAwaitingQuery(ctx: TenantCtx) {
  return ctx.db
    .select({ n: count() })
    .from(letters)
    .where(inArray(letters.status, ["diajukan", "diproses"]));
}

export function listJenis() {
  return { items: JENIS.map(presentJenis) };
}
