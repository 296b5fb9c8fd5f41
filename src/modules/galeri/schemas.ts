import { z } from "zod";
import { ListQuery } from "../../core/db/paging";
import { binaryPart } from "../../core/http/openapi";
import { Line, Paragraph } from "../../core/schemas";

const Day = z.string().regex(/^\d{4}-\d{2}-\d{2}$/, "YYYY-MM-DD");

export const CreateAlbumInput = z.object({
  title: Line(120, 2),
  description: Paragraph(2000, 0).optional(),
  eventDate: Day.optional(),
});
export type CreateAlbumInput = z.infer<typeof CreateAlbumInput>;

export const AlbumListQuery = ListQuery;

export const PhotoParams = z.object({ id: z.string().min(1).max(64), photoId: z.string().min(1).max(64) });

export const GalleryPhoto = z
  .object({
    id: z.string(),
    albumId: z.string(),
    url: z.string().describe("GET /api/files/:id: cached by ETag"),
    contentType: z.string(),
    size: z.number().int(),
    caption: z.string().nullable(),
    createdAt: z.string(),
  })
  .openapi("GalleryPhoto");

export const UploadedPhoto = GalleryPhoto.extend({
  metadataRemoved: z.array(z.string()).describe("What was stripped before storing (exif with GPS, xmp, …)"),
}).openapi("UploadedGalleryPhoto");

export const Album = z
  .object({
    id: z.string(),
    title: z.string(),
    description: z.string().nullable(),
    eventDate: z.string().nullable(),
    photoCount: z.number().int(),
    cover: GalleryPhoto.nullable().describe("The album's first photo"),
    createdAt: z.string(),
    updatedAt: z.string(),
  })
  .openapi("GalleryAlbum");

export const AlbumWithPhotos = Album.extend({ photos: z.array(GalleryPhoto) }).openapi(
  "GalleryAlbumWithPhotos",
);

export const multipartPhoto = {
  content: {
    "multipart/form-data": {
      schema: z.object({
        file: binaryPart("JPEG, PNG or WebP image, at most 5 MB; EXIF (GPS position) is stripped"),
        caption: z.string().max(300).optional(),
      }),
    },
  },
};
