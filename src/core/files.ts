import { Invalid, TooLarge, UnsupportedMedia } from "./errors";

/** Spec limit for an image attachment (tickets today; letters and complaints reuse it). 5 MiB. */
export const MAX_IMAGE_BYTES = 5 * 1024 * 1024;

export type ImageType = "image/jpeg" | "image/png" | "image/webp";

export const IMAGE_EXTENSION: Record<ImageType, string> = {
  "image/jpeg": "jpg",
  "image/png": "png",
  "image/webp": "webp",
};

/**
 * Recognises JPEG, PNG and WebP by their first bytes. The file name and the declared type are only
 * the sender's claim: an HTML page renamed `.png` must never be served back as an image.
 */
export function sniffImageType(bytes: Uint8Array): ImageType | null {
  const at = (i: number): number => bytes[i] ?? -1;
  if (at(0) === 0xff && at(1) === 0xd8 && at(2) === 0xff) {
    return "image/jpeg";
  }
  if ([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a].every((b, i) => at(i) === b)) {
    return "image/png";
  }
  const ascii = (from: number, to: number) => String.fromCharCode(...bytes.subarray(from, to));
  if (ascii(0, 4) === "RIFF" && ascii(8, 12) === "WEBP") {
    return "image/webp";
  }
  return null;
}

export interface ImageUpload {
  bytes: Uint8Array;
  contentType: ImageType;
  size: number;
  filename: string;
}

// Room for the multipart boundaries and part headers around the file itself.
const MULTIPART_OVERHEAD = 64 * 1024;
/** The most a multipart upload of one file may hold, boundaries included (every upload route's cap). */
export const MAX_MULTIPART_BYTES = MAX_IMAGE_BYTES + MULTIPART_OVERHEAD;

export function isMultipart(request: Request): boolean {
  return (request.headers.get("Content-Type") ?? "").toLowerCase().startsWith("multipart/form-data");
}

/**
 * Refuses a multipart body that is not multipart or whose declared Content-Length is already over the
 * limit, before anything is buffered.
 */
export function checkMultipart(request: Request, maxBytes = MAX_IMAGE_BYTES): void {
  const type = request.headers.get("Content-Type") ?? "";
  if (!type.toLowerCase().startsWith("multipart/form-data")) {
    throw new UnsupportedMedia("Send the image as multipart/form-data in the field `file`.", "not_multipart");
  }
  const declared = Number(request.headers.get("Content-Length") ?? "");
  if (Number.isFinite(declared) && declared > maxBytes + MULTIPART_OVERHEAD) {
    throw new TooLarge(`An image may be at most ${maxBytes} bytes.`, "file_too_large");
  }
}

export async function readForm(request: Request): Promise<FormData> {
  try {
    return await request.formData();
  } catch {
    throw new Invalid("invalid_multipart", "The multipart body could not be read.", [
      { field: "file", message: "unreadable multipart body" },
    ]);
  }
}

/** Checks one uploaded File: its size before its bytes are read, then its first bytes. */
export async function imageFromFile(file: File, maxBytes = MAX_IMAGE_BYTES): Promise<ImageUpload> {
  if (file.size > maxBytes) {
    throw new TooLarge(`An image may be at most ${maxBytes} bytes.`, "file_too_large");
  }
  if (file.size === 0) {
    throw new Invalid("file_empty", "The file is empty.", [{ field: "file", message: "empty" }]);
  }
  const bytes = new Uint8Array(await file.arrayBuffer());
  const contentType = sniffImageType(bytes);
  if (!contentType) {
    throw new UnsupportedMedia("Only JPEG, PNG or WebP images are accepted.", "unsupported_image_type");
  }
  return { bytes, contentType, size: bytes.byteLength, filename: file.name };
}

/** Reads and checks the image in the multipart field `file`. */
export async function readImageUpload(request: Request, maxBytes = MAX_IMAGE_BYTES): Promise<ImageUpload> {
  checkMultipart(request, maxBytes);
  const file = (await readForm(request)).get("file");
  if (file === null || typeof file === "string") {
    throw new Invalid("file_missing", "The image goes in the multipart field `file`.", [
      { field: "file", message: "required" },
    ]);
  }
  return imageFromFile(file, maxBytes);
}
