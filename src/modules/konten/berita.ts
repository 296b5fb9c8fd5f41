import { and, desc, eq, type SQL, sql } from "drizzle-orm";
import { audit } from "../../core/audit";
import type { TenantCtx } from "../../core/context";
import { abortBatchUnless, isBatchAborted } from "../../core/db/errors";
import { afterCursor, jakartaDayFilters, keysetPage } from "../../core/db/paging";
import { rowById } from "../../core/db/rows";
import { Conflict, NotFound } from "../../core/errors";
import { hasRole, ROLES, requireUser } from "../../core/http/access";
import { newId } from "../../core/ids";
import { requireTenantFile, tenantFileUrl } from "../../core/uploads";
import { audienceOf, fanOut } from "./fanout";
import { plainExcerpt, renderMarkdown } from "./markdown";
import { nextPublication, owesFanout } from "./publishing";
import type { BeritaListQuery, CreateBeritaInput, UpdateBeritaInput } from "./schemas";
import { berita } from "./tables";

type Row = typeof berita.$inferSelect;

const isWriter = (ctx: TenantCtx) => hasRole(ctx, ROLES.SECRETARIAT);

function present(ctx: TenantCtx, row: Row) {
  return {
    id: row.id,
    title: row.title,
    body: row.body,
    bodyHtml: row.bodyHtml,
    cover: row.coverFileId ? { id: row.coverFileId, url: tenantFileUrl(ctx, row.coverFileId) } : null,
    status: row.status,
    version: row.version,
    publishedAt: row.publishedAt,
    createdAt: row.createdAt,
    updatedAt: row.updatedAt,
  };
}

/** A draft is the writers' own: to anyone else it does not exist. */
async function load(ctx: TenantCtx, id: string): Promise<Row> {
  const row = await rowById(ctx.db, berita, id);
  if (!row || (row.status !== "terbit" && !isWriter(ctx))) {
    throw new NotFound("Berita");
  }
  return row;
}

/** Pushes a published version nobody was told about yet, then records it as told. */
async function notify(ctx: TenantCtx, row: Row): Promise<Row> {
  if (!owesFanout(row)) {
    return row;
  }
  const members = await audienceOf(ctx, null);
  const sent = await fanOut(ctx, members, {
    reference: `${ctx.tenant.id}:berita:${row.id}:v${row.version}`,
    urgent: false,
    push: { title: row.title, body: plainExcerpt(row.body), data: { screen: "berita", id: row.id } },
  });
  if (!sent) {
    return row;
  }
  await ctx.db
    .update(berita)
    .set({ notifiedVersion: row.version })
    .where(and(eq(berita.id, row.id), eq(berita.version, row.version)));
  return { ...row, notifiedVersion: row.version };
}

/** A cover must be an image of this tenant's store uploaded as a cover (`sampul`). */
async function coverOf(ctx: TenantCtx, id: string | null | undefined): Promise<string | null | undefined> {
  if (!id) {
    return id;
  }
  return (await requireTenantFile(ctx, id, { purposes: ["sampul"], field: "coverFileId" })).id;
}

export async function createBerita({ ctx, input }: { ctx: TenantCtx; input: CreateBeritaInput }) {
  const coverFileId = (await coverOf(ctx, input.coverFileId)) ?? null;
  const now = ctx.now().toISOString();
  const id = newId();
  const [[row]] = await ctx.db.batch([
    ctx.db
      .insert(berita)
      .values({
        id,
        title: input.title,
        body: input.body,
        bodyHtml: renderMarkdown(input.body),
        coverFileId,
        status: input.status,
        authorId: requireUser(ctx).userId,
        publishedAt: input.status === "terbit" ? now : null,
        createdAt: now,
        updatedAt: now,
      })
      .returning(),
    audit(ctx, {
      action: "berita.create",
      targetType: "berita",
      targetId: id,
      detail: { status: input.status },
    }),
  ]);
  return present(ctx, await notify(ctx, row as Row));
}

export async function getBerita({ ctx, id }: { ctx: TenantCtx; id: string }) {
  return present(ctx, await load(ctx, id));
}

export async function listBerita({ ctx, input }: { ctx: TenantCtx; input: BeritaListQuery }) {
  const status = isWriter(ctx) ? input.status : "terbit";
  const filters: SQL[] = [
    ...afterCursor(berita.id, input.cursor, "desc"),
    ...(status ? [eq(berita.status, status)] : []),
    ...jakartaDayFilters(berita.createdAt, input.from, input.to),
  ];
  const rows = await ctx.db
    .select()
    .from(berita)
    .where(and(...filters))
    .orderBy(desc(berita.id))
    .limit(input.limit + 1);
  const page = keysetPage(rows, input.limit);
  return { items: page.items.map((r) => present(ctx, r)), nextCursor: page.nextCursor };
}

export async function updateBerita({
  ctx,
  id,
  input,
}: {
  ctx: TenantCtx;
  id: string;
  input: UpdateBeritaInput;
}) {
  const current = await load(ctx, id);
  const title = input.title ?? current.title;
  const body = input.body ?? current.body;
  const coverFileId =
    input.coverFileId === undefined ? current.coverFileId : await coverOf(ctx, input.coverFileId);
  const changed = title !== current.title || body !== current.body || coverFileId !== current.coverFileId;
  const now = ctx.now().toISOString();
  const next = nextPublication(current, input.status, changed, now);
  try {
    const [[row]] = await ctx.db.batch([
      ctx.db
        .update(berita)
        .set({
          title,
          body,
          bodyHtml: renderMarkdown(body),
          coverFileId: coverFileId ?? null,
          ...next,
          updatedAt: now,
        })
        .where(and(eq(berita.id, id), eq(berita.updatedAt, current.updatedAt)))
        .returning(),
      abortBatchUnless(ctx.db, berita, id, sql`changes() = 1`),
      audit(ctx, {
        action: "berita.update",
        targetType: "berita",
        targetId: id,
        detail: { from: current.status, to: next.status, version: next.version },
      }),
    ]);
    return present(ctx, await notify(ctx, row as Row));
  } catch (error) {
    if (isBatchAborted(error)) {
      throw new Conflict("conflict", "This news item changed meanwhile; reload it and try again.");
    }
    throw error;
  }
}

export async function deleteBerita({ ctx, id }: { ctx: TenantCtx; id: string }) {
  await load(ctx, id);
  await ctx.db.batch([
    ctx.db.delete(berita).where(eq(berita.id, id)),
    audit(ctx, { action: "berita.delete", targetType: "berita", targetId: id }),
  ]);
}

/** Published news the fan-out still owes (the notification service was down): the hourly job's work. */
export async function retryOwedBerita(ctx: TenantCtx): Promise<number> {
  const owed = await ctx.db
    .select()
    .from(berita)
    .where(and(eq(berita.status, "terbit"), sql`${berita.notifiedVersion} IS NOT ${berita.version}`))
    .limit(20);
  let sent = 0;
  for (const row of owed) {
    if ((await notify(ctx, row)).notifiedVersion === row.version) {
      sent++;
    }
  }
  return sent;
}

/** The latest published news (id, title, time): the watch summary's list. */
export async function latestBeritaTitles(ctx: TenantCtx, count: number) {
  return ctx.db
    .select({ id: berita.id, title: berita.title, publishedAt: berita.publishedAt })
    .from(berita)
    .where(eq(berita.status, "terbit"))
    .orderBy(desc(berita.id))
    .limit(count);
}
