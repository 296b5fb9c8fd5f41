import { desc, eq } from "drizzle-orm";
import { audit } from "../../core/audit";
import type { TenantCtx } from "../../core/context";
import { requireUser } from "../../core/http/access";
import { newId } from "../../core/ids";
import { requireTenantFile, tenantFileUrl } from "../../platform/uploads";
import { audienceOf, fanOut } from "./fanout";
import { plainExcerpt, renderContent } from "./markdown";
import {
  deleteContent,
  fanOutOwed,
  listContent,
  loadContent,
  nextPublication,
  retryOwedContent,
  saveContent,
} from "./publishing";
import type { BeritaListQuery, CreateBeritaInput, UpdateBeritaInput } from "./schemas";
import { berita } from "./tables";

type Row = typeof berita.$inferSelect;

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

const load = (ctx: TenantCtx, id: string) => loadContent(ctx, berita, id, "Berita");

/** Pushes a published version nobody was told about yet to every member, then records it as told. */
function notify(ctx: TenantCtx, row: Row): Promise<Row> {
  return fanOutOwed(ctx, berita, row, async (owed) =>
    fanOut(ctx, await audienceOf(ctx, null), {
      reference: `${ctx.tenant.id}:berita:${owed.id}:v${owed.version}`,
      urgent: false,
      push: { title: owed.title, body: plainExcerpt(owed.body), data: { screen: "berita", id: owed.id } },
    }),
  );
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
        bodyHtml: await renderContent(ctx, input.body),
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
  const page = await listContent(ctx, berita, input);
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
  const row = await saveContent(ctx, berita, "berita", current, {
    title,
    body,
    bodyHtml: await renderContent(ctx, body, input.body !== undefined),
    coverFileId: coverFileId ?? null,
    ...next,
    updatedAt: now,
  });
  return present(ctx, await notify(ctx, row));
}

export function deleteBerita({ ctx, id }: { ctx: TenantCtx; id: string }) {
  return deleteContent(ctx, berita, "berita", id);
}

/** Published news the fan-out still owes (the notification service was down): the hourly job's work. */
export function retryOwedBerita(ctx: TenantCtx): Promise<number> {
  return retryOwedContent(ctx, berita, (row) => notify(ctx, row));
}

/** The latest published news (id, title, time): the watch summary's list. */
export function latestBeritaTitles(ctx: TenantCtx, count: number) {
  return ctx.db
    .select({ id: berita.id, title: berita.title, publishedAt: berita.publishedAt })
    .from(berita)
    .where(eq(berita.status, "terbit"))
    .orderBy(desc(berita.id))
    .limit(count);
}
