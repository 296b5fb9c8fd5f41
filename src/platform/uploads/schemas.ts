import { z } from "zod";
import { binaryPart } from "../../core/http/openapi";
import { FILE_PURPOSES } from "./purposes";

export const FilePurposeSchema = z.enum(FILE_PURPOSES);

export const StoredFile = z
  .object({
    id: z.string(),
    purpose: FilePurposeSchema,
    url: z.string().describe("The access-checked route that serves the file: GET /api/files/:id"),
    contentType: z.enum(["image/jpeg", "image/png", "image/webp"]),
    size: z.number().int(),
    sha256: z.string().describe("SHA-256 of the stored bytes; the file's ETag"),
    uploadedBy: z.string(),
    createdAt: z.string(),
  })
  .openapi("StoredFile");

export const UploadedFile = StoredFile.extend({
  metadataRemoved: z
    .array(z.string())
    .describe(
      "What was stripped before storing: exif (GPS position among it), xmp, iptc, comment, text, trailer, …",
    ),
}).openapi("UploadedFile");

export const multipartFile = {
  content: {
    "multipart/form-data": {
      schema: z.object({
        file: binaryPart("JPEG, PNG or WebP image, at most 5 MB; EXIF and other metadata are removed"),
        purpose: FilePurposeSchema.describe(
          "bukti_bayar (any member), nota and lampiran_kas (bendahara, admin), sampul (staff), pengaduan (any member), pasar (any member)",
        ),
      }),
    },
  },
};
