import { and, count, desc, eq, inArray, min } from "drizzle-orm";
import { audit } from "../../core/audit";
import type { TenantCtx } from "../../core/context";
import { abortBatchUnless, isBatchAborted } from "../../core/db/errors";
import { afterCursor, keysetPage, type ListQuery } from "../../core/db/paging";
import { noteRowVersion, rowByIdOrNotFound } from "../../core/db/rows";
import { Conflict, NotFound } from "../../core/errors";
import type { ImageUpload } from "../../core/files";
import { requireUser } from "../../core/http/access";
import { newId } from "../../core/ids";
import { nowIso } from "../../core/time";
import {
  planTenantFileDeletion,
  prepareTenantFile,
  type TenantFile,
  tenantFilesByIds,
} from "../../platform/uploads";
import type { CreateAlbumInput } from "./schemas";
import { galleryAlbums, galleryPhotos } from "./tables";

type AlbumRow = typeof galleryAlbums.$inferSelect;
type PhotoRow = typeof galleryPhotos.$inferSelect;

/** Enough for a whole day of an event; a bigger set is two albums. */
export const MAX_PHOTOS_PER_ALBUM = 300;

function presentPhoto(row: PhotoRow, file: TenantFile | undefined) {
  return {
    id: row.id,
    albumId: row.albumId,
    url: file?.url ?? "",
    contentType: file?.contentType ?? "application/octet-stream",
    size: file?.size ?? 0,
    caption: row.caption,
    createdAt: row.createdAt,
  };
}

async function loadAlbum(ctx: TenantCtx, id: string): Promise<AlbumRow> {
  return rowByIdOrNotFound(ctx.db, galleryAlbums, id, "Album", "album_not_found");
}

function presentAlbum(
  row: AlbumRow,
  { photoCount, cover }: { photoCount: number; cover: ReturnType<typeof presentPhoto> | null },
) {
  return {
    id: row.id,
    title: row.title,
    description: row.description,
    eventDate: row.eventDate,
    photoCount,
    cover,
    createdAt: row.createdAt,
    updatedAt: row.updatedAt,
  };
}

/**
 * A page of albums with each one's photo count and cover (its first photo): the page, the counts and the
 * covers in one batch (the counts and covers found through the page's ids in a subquery), then the files
 * behind the covers.
 */
export async function listAlbums({ ctx, input }: { ctx: TenantCtx; input: ListQuery }) {
  const onPage = and(...afterCursor(galleryAlbums.id, input.cursor, "desc"));
  const pageIds = ctx.db
    .select({ id: galleryAlbums.id })
    .from(galleryAlbums)
    .where(onPage)
    .orderBy(desc(galleryAlbums.id))
    .limit(input.limit + 1);
  const ofPage = inArray(galleryPhotos.albumId, pageIds);
  const [rows, stats, covers] = await ctx.db.batch([
    ctx.db
      .select()
      .from(galleryAlbums)
      .where(onPage)
      .orderBy(desc(galleryAlbums.id))
      .limit(input.limit + 1),
    ctx.db
      .select({ albumId: galleryPhotos.albumId, photos: count() })
      .from(galleryPhotos)
      .where(ofPage)
      .groupBy(galleryPhotos.albumId),
    ctx.db
      .select()
      .from(galleryPhotos)
      .where(
        inArray(
          galleryPhotos.id,
          ctx.db
            .select({ first: min(galleryPhotos.id) })
            .from(galleryPhotos)
            .where(ofPage)
            .groupBy(galleryPhotos.albumId),
        ),
      ),
  ]);
  const page = keysetPage(rows, input.limit);
  const files = await tenantFilesByIds(
    ctx,
    covers.map((c) => c.id),
  );
  const coverOf = new Map(covers.map((c) => [c.albumId, presentPhoto(c, files.get(c.id))]));
  const countOf = new Map(stats.map((s) => [s.albumId, s.photos]));
  return {
    items: page.items.map((row) =>
      presentAlbum(row, { photoCount: countOf.get(row.id) ?? 0, cover: coverOf.get(row.id) ?? null }),
    ),
    nextCursor: page.nextCursor,
  };
}

export async function createAlbum({ ctx, input }: { ctx: TenantCtx; input: CreateAlbumInput }) {
  const now = nowIso(ctx);
  const row: AlbumRow = {
    id: newId(),
    rowVersion: 1,
    title: input.title,
    description: input.description || null,
    eventDate: input.eventDate ?? null,
    createdBy: requireUser(ctx).userId,
    createdAt: now,
    updatedAt: now,
  };
  await ctx.db.batch([
    ctx.db.insert(galleryAlbums).values(row),
    audit(ctx, { action: "galeri.album.create", targetType: "gallery_album", targetId: row.id }),
  ]);
  return { ...presentAlbum(row, { photoCount: 0, cover: null }), photos: [] };
}

/**
 * An album with all its photos, oldest first (the order they were taken and added in): the album, its
 * photos and their count in one batch, then the files behind the photos. Its cover is its first photo,
 * as the list's summary takes it (the smallest id).
 */
export async function getAlbum({ ctx, id }: { ctx: TenantCtx; id: string }) {
  const [[album], photos, [counted]] = await ctx.db.batch([
    ctx.db.select().from(galleryAlbums).where(eq(galleryAlbums.id, id)),
    ctx.db
      .select()
      .from(galleryPhotos)
      .where(eq(galleryPhotos.albumId, id))
      .orderBy(galleryPhotos.id)
      .limit(MAX_PHOTOS_PER_ALBUM),
    ctx.db.select({ photos: count() }).from(galleryPhotos).where(eq(galleryPhotos.albumId, id)),
  ]);
  noteRowVersion(ctx.db, galleryAlbums, id, album);
  if (!album) {
    throw new NotFound("Album", "album_not_found");
  }
  const files = await tenantFilesByIds(
    ctx,
    photos.map((p) => p.id),
  );
  const shown = photos.map((p) => presentPhoto(p, files.get(p.id)));
  return {
    ...presentAlbum(album, { photoCount: counted?.photos ?? 0, cover: shown[0] ?? null }),
    photos: shown,
  };
}

export async function deleteAlbum({ ctx, id }: { ctx: TenantCtx; id: string }) {
  const album = await loadAlbum(ctx, id);
  const photoIds = (
    await ctx.db.select({ id: galleryPhotos.id }).from(galleryPhotos).where(eq(galleryPhotos.albumId, id))
  ).map((p) => p.id);
  const files = await planTenantFileDeletion(ctx, photoIds);
  await ctx.db.batch([
    ctx.db.delete(galleryPhotos).where(eq(galleryPhotos.albumId, id)),
    files.statement,
    ctx.db.delete(galleryAlbums).where(eq(galleryAlbums.id, id)),
    audit(ctx, {
      action: "galeri.album.delete",
      targetType: "gallery_album",
      targetId: id,
      detail: { title: album.title, photos: photoIds.length },
    }),
  ]);
  await files.purge();
}

/**
 * Stores a photo (metadata stripped by the file store) and adds it to the album in one batch; the
 * batch stops if the album was deleted meanwhile, and then the stored object is removed again.
 */
export async function addPhoto({
  ctx,
  id,
  input,
}: {
  ctx: TenantCtx;
  id: string;
  input: { upload: ImageUpload; caption: string | null };
}) {
  await loadAlbum(ctx, id);
  const [{ photos } = { photos: 0 }] = await ctx.db
    .select({ photos: count() })
    .from(galleryPhotos)
    .where(eq(galleryPhotos.albumId, id));
  if (photos >= MAX_PHOTOS_PER_ALBUM) {
    throw new Conflict("too_many_photos", `An album holds at most ${MAX_PHOTOS_PER_ALBUM} photos.`);
  }
  const prepared = await prepareTenantFile(ctx, { upload: input.upload, purpose: "galeri" });
  const row: PhotoRow = {
    id: prepared.file.id,
    albumId: id,
    caption: input.caption,
    createdBy: requireUser(ctx).userId,
    createdAt: prepared.file.createdAt,
  };
  try {
    await ctx.db.batch([
      prepared.insert,
      ctx.db.insert(galleryPhotos).values(row),
      abortBatchUnless(ctx.db, galleryAlbums, id, eq(galleryAlbums.id, id)),
      ctx.db
        .update(galleryAlbums)
        .set({ updatedAt: nowIso(ctx) })
        .where(eq(galleryAlbums.id, id)),
      audit(ctx, {
        action: "galeri.photo.add",
        targetType: "gallery_photo",
        targetId: row.id,
        detail: { albumId: id, removed: prepared.removed },
      }),
    ]);
  } catch (error) {
    await prepared.discard();
    if (isBatchAborted(error)) {
      throw new NotFound("Album", "album_not_found");
    }
    throw error;
  }
  return { ...presentPhoto(row, prepared.file), metadataRemoved: prepared.removed };
}

export async function deletePhoto({ ctx, id, photoId }: { ctx: TenantCtx; id: string; photoId: string }) {
  const photo = await ctx.db
    .select()
    .from(galleryPhotos)
    .where(and(eq(galleryPhotos.id, photoId), eq(galleryPhotos.albumId, id)))
    .get();
  if (!photo) {
    throw new NotFound("Photo");
  }
  const files = await planTenantFileDeletion(ctx, [photo.id]);
  await ctx.db.batch([
    ctx.db.delete(galleryPhotos).where(eq(galleryPhotos.id, photo.id)),
    files.statement,
    audit(ctx, {
      action: "galeri.photo.delete",
      targetType: "gallery_photo",
      targetId: photo.id,
      detail: { albumId: id },
    }),
  ]);
  await files.purge();
}
