import { and, desc, eq, type SQL, sql } from "drizzle-orm";
import { audit } from "../../core/audit";
import type { TenantCtx } from "../../core/context";
import { abortBatchUnless, isBatchAborted } from "../../core/db/errors";
import { afterCursor, jakartaDayFilters, keysetPage } from "../../core/db/paging";
import { rowById } from "../../core/db/rows";
import { Conflict, NotFound } from "../../core/errors";
import { hasRole, ROLES } from "../../core/http/access";
import type { berita, ContentStatus, pengumuman } from "./tables";

interface Publishable {
  status: ContentStatus;
  version: number;
  notifiedVersion: number | null;
  publishedAt: string | null;
}

/**
 * How a write moves a news item or an announcement. A content change after a version was sent makes
 * a new version; whatever is published and not yet sent at its current version is owed a fan-out. So
 * publishing sends, a published edit sends again, a double click or an unpublish-republish without an
 * edit sends nothing, and edits to a draft never sent stay version 1.
 */
export function nextPublication(
  current: Publishable,
  status: ContentStatus | undefined,
  contentChanged: boolean,
  now: string,
) {
  const nextStatus = status ?? current.status;
  const version =
    contentChanged && current.notifiedVersion === current.version ? current.version + 1 : current.version;
  const publishedAt =
    nextStatus === "terbit" && current.status !== "terbit"
      ? (current.publishedAt ?? now)
      : current.publishedAt;
  return { status: nextStatus, version, publishedAt };
}

export const owesFanout = (row: Publishable): boolean =>
  row.status === "terbit" && row.notifiedVersion !== row.version;

/** News and announcements: the two kinds of published content, kept and moved the same way. */
type ContentTable = typeof berita | typeof pengumuman;
type ContentRow<T extends ContentTable> = T["$inferSelect"];
type ContentKind = "berita" | "pengumuman";

const isWriter = (ctx: TenantCtx) => hasRole(ctx, ROLES.SECRETARIAT);

/** One item; a draft is the writers' own, and to anyone else it does not exist. */
export async function loadContent<T extends ContentTable>(
  ctx: TenantCtx,
  table: T,
  id: string,
  noun: string,
): Promise<ContentRow<T>> {
  const row = await rowById(ctx.db, table, id);
  if (!row || (row.status !== "terbit" && !isWriter(ctx))) {
    throw new NotFound(noun);
  }
  return row;
}

/** Newest first; residents see published items only, writers may filter by status. */
export async function listContent<T extends ContentTable>(
  ctx: TenantCtx,
  table: T,
  input: { limit: number; cursor?: string; status?: ContentStatus; from?: string; to?: string },
) {
  const status = isWriter(ctx) ? input.status : "terbit";
  const filters: SQL[] = [
    ...afterCursor(table.id, input.cursor, "desc"),
    ...(status ? [eq(table.status, status)] : []),
    ...jakartaDayFilters(table.createdAt, input.from, input.to),
  ];
  const rows: ContentRow<T>[] = await ctx.db
    .select()
    .from(table as ContentTable)
    .where(and(...filters))
    .orderBy(desc(table.id))
    .limit(input.limit + 1);
  return keysetPage(rows, input.limit);
}

/**
 * Writes an edit in one batch with its audit record, only if nobody changed the item since it was read
 * (`current.updatedAt`); otherwise 409 `conflict`.
 */
export async function saveContent<T extends ContentTable>(
  ctx: TenantCtx,
  table: T,
  kind: ContentKind,
  current: ContentRow<T>,
  changes: Partial<ContentRow<T>> & { status: ContentStatus; version: number; updatedAt: string },
): Promise<ContentRow<T>> {
  try {
    const [[row]] = await ctx.db.batch([
      ctx.db
        .update(table as ContentTable)
        .set(changes)
        .where(and(eq(table.id, current.id), eq(table.updatedAt, current.updatedAt)))
        .returning(),
      abortBatchUnless(ctx.db, table, current.id, sql`changes() = 1`),
      audit(ctx, {
        action: `${kind}.update`,
        targetType: kind,
        targetId: current.id,
        detail: { from: current.status, to: changes.status, version: changes.version },
      }),
    ]);
    return row as ContentRow<T>;
  } catch (error) {
    if (isBatchAborted(error)) {
      throw new Conflict("conflict", "This item changed meanwhile; reload it and try again.");
    }
    throw error;
  }
}

/** Deletes an item the caller can see, with its audit record in the same batch. */
export async function deleteContent(ctx: TenantCtx, table: ContentTable, kind: ContentKind, id: string) {
  await loadContent(ctx, table, id, kind === "berita" ? "Berita" : "Pengumuman");
  await ctx.db.batch([
    ctx.db.delete(table).where(eq(table.id, id)),
    audit(ctx, { action: `${kind}.delete`, targetType: kind, targetId: id }),
  ]);
}

/**
 * Fans a published version nobody was told about out with `send` (false when the notification service
 * refused it), then records that version as told. Anything else is answered as it is.
 */
export async function fanOutOwed<T extends ContentTable>(
  ctx: TenantCtx,
  table: T,
  row: ContentRow<T>,
  send: (row: ContentRow<T>) => Promise<boolean>,
): Promise<ContentRow<T>> {
  if (!owesFanout(row) || !(await send(row))) {
    return row;
  }
  await ctx.db
    .update(table as ContentTable)
    .set({ notifiedVersion: row.version })
    .where(and(eq(table.id, row.id), eq(table.version, row.version)));
  return { ...row, notifiedVersion: row.version };
}

/** The hourly job's work: published items whose fan-out is still owed (the service was down), 20 a run. */
export async function retryOwedContent<T extends ContentTable>(
  ctx: TenantCtx,
  table: T,
  notify: (row: ContentRow<T>) => Promise<ContentRow<T>>,
): Promise<number> {
  const owed: ContentRow<T>[] = await ctx.db
    .select()
    .from(table as ContentTable)
    .where(and(eq(table.status, "terbit"), sql`${table.notifiedVersion} IS NOT ${table.version}`))
    .limit(20);
  let sent = 0;
  for (const row of owed) {
    if ((await notify(row)).notifiedVersion === row.version) {
      sent++;
    }
  }
  return sent;
}
