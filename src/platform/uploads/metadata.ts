import { Invalid } from "../../core/errors";
import type { ImageType } from "../../core/files";

/**
 * Removes what a phone writes about a photo besides the picture: EXIF (GPS position, camera serial,
 * time), XMP, IPTC, comments, text chunks, and data appended after the image's end (motion-photo
 * videos, vendor trailers). A resident's photo of their goods must not publish where they live.
 *
 * The picture's bytes are copied untouched; only whole segments (JPEG), chunks (PNG, WebP) and trailers
 * are dropped, so nothing is re-encoded and no quality is lost. What is kept: JFIF, ICC colour profiles
 * and the Adobe segment (they change how the picture looks), and a JPEG's EXIF orientation, rewritten
 * as a new EXIF block holding that one tag, so a photo taken sideways is still shown upright.
 *
 * A file whose structure cannot be walked to its end (truncated, or a length pointing past the end)
 * is refused with 400 `image_unreadable`: we cannot promise its metadata is gone, so it is not stored.
 */

export interface CleanImage {
  bytes: Uint8Array;
  /** What was removed, for the uploader's answer: `exif`, `xmp`, `iptc`, `comment`, `text`, `trailer`, … */
  removed: string[];
}

const unreadable = (why: string) =>
  new Invalid("image_unreadable", `The image could not be read (${why}); its metadata cannot be removed.`, [
    { field: "file", message: why },
  ]);

const ascii = (bytes: Uint8Array, from: number, length: number) =>
  String.fromCharCode(...bytes.subarray(from, from + length));

function concat(parts: Uint8Array[]): Uint8Array {
  const out = new Uint8Array(parts.reduce((n, p) => n + p.byteLength, 0));
  let at = 0;
  for (const part of parts) {
    out.set(part, at);
    at += part.byteLength;
  }
  return out;
}

export function stripImageMetadata(bytes: Uint8Array, type: ImageType): CleanImage {
  switch (type) {
    case "image/jpeg":
      return stripJpeg(bytes);
    case "image/png":
      return stripPng(bytes);
    case "image/webp":
      return stripWebp(bytes);
  }
}

// --- JPEG ------------------------------------------------------------------------------------------

const SOI = 0xd8;
const EOI = 0xd9;
const SOS = 0xda;
const APP0 = 0xe0;
const APP1 = 0xe1;
const APP2 = 0xe2;
const APP13 = 0xed;
const APP14 = 0xee;
const COM = 0xfe;

/** Markers without a length: RSTn, TEM (and SOI/EOI, handled on their own). */
const standalone = (marker: number) => (marker >= 0xd0 && marker <= 0xd7) || marker === 0x01;

/** The EXIF Orientation (1–8) in an APP1 EXIF payload (after the 6-byte `Exif\0\0`), if readable. */
function exifOrientation(tiff: Uint8Array): number | null {
  if (tiff.byteLength < 8) {
    return null;
  }
  const order = ascii(tiff, 0, 2);
  if (order !== "II" && order !== "MM") {
    return null;
  }
  const view = new DataView(tiff.buffer, tiff.byteOffset, tiff.byteLength);
  const little = order === "II";
  const ifd = view.getUint32(4, little);
  if (ifd + 2 > tiff.byteLength) {
    return null;
  }
  const count = view.getUint16(ifd, little);
  for (let i = 0; i < count; i++) {
    const entry = ifd + 2 + i * 12;
    if (entry + 12 > tiff.byteLength) {
      return null;
    }
    if (view.getUint16(entry, little) === 0x0112 && view.getUint16(entry + 2, little) === 3) {
      const value = view.getUint16(entry + 8, little);
      return value >= 1 && value <= 8 ? value : null;
    }
  }
  return null;
}

/** An APP1 segment with an EXIF block of one entry: Orientation. Big-endian TIFF, 34 bytes of payload. */
function orientationSegment(orientation: number): Uint8Array {
  const payload = new Uint8Array([
    ...[0x45, 0x78, 0x69, 0x66, 0, 0], // "Exif\0\0"
    ...[0x4d, 0x4d, 0x00, 0x2a, 0, 0, 0, 8], // "MM", 42, IFD0 at 8
    ...[0, 1], // one entry
    ...[0x01, 0x12, 0, 3, 0, 0, 0, 1, 0, orientation, 0, 0], // Orientation, SHORT, 1, value
    ...[0, 0, 0, 0], // no next IFD
  ]);
  const length = payload.byteLength + 2;
  return concat([new Uint8Array([0xff, APP1, length >> 8, length & 0xff]), payload]);
}

function stripJpeg(bytes: Uint8Array): CleanImage {
  if (bytes[0] !== 0xff || bytes[1] !== SOI) {
    throw unreadable("no JPEG start marker");
  }
  const kept: Uint8Array[] = [bytes.subarray(0, 2)];
  const removed = new Set<string>();
  let orientation: number | null = null;
  /** Where the orientation segment goes: after a leading JFIF APP0, or right after SOI. */
  let insertAt = 1;
  let pos = 2;
  let ended = false;
  while (pos < bytes.byteLength) {
    if (bytes[pos] !== 0xff) {
      throw unreadable("garbage between segments");
    }
    while (bytes[pos] === 0xff) {
      pos++; // fill bytes
    }
    const marker = bytes[pos];
    if (marker === undefined) {
      throw unreadable("truncated marker");
    }
    pos++;
    if (marker === EOI) {
      kept.push(new Uint8Array([0xff, EOI]));
      ended = true;
      break;
    }
    if (standalone(marker)) {
      kept.push(new Uint8Array([0xff, marker]));
      continue;
    }
    if (pos + 2 > bytes.byteLength) {
      throw unreadable("truncated segment");
    }
    const length = ((bytes[pos] ?? 0) << 8) | (bytes[pos + 1] ?? 0);
    const end = pos + length;
    if (length < 2 || end > bytes.byteLength) {
      throw unreadable("segment runs past the end");
    }
    const segment = bytes.subarray(pos - 2, end);
    const payload = bytes.subarray(pos + 2, end);
    pos = end;
    if (marker === APP1) {
      if (ascii(payload, 0, 6) === "Exif\0\0") {
        orientation ??= exifOrientation(payload.subarray(6));
        removed.add("exif");
      } else {
        removed.add(ascii(payload, 0, 29).startsWith("http://ns.adobe.com/") ? "xmp" : "app1");
      }
      continue;
    }
    if (marker === APP13) {
      removed.add("iptc");
      continue;
    }
    if (marker === COM) {
      removed.add("comment");
      continue;
    }
    if (marker === APP2 && !ascii(payload, 0, 12).startsWith("ICC_PROFILE")) {
      // MPF and friends index images appended after EOI, which are dropped below.
      removed.add("app2");
      continue;
    }
    if (marker > APP2 && marker <= 0xef && marker !== APP14) {
      removed.add(`app${marker - APP0}`);
      continue;
    }
    kept.push(segment);
    if (marker === APP0 && kept.length === 2) {
      insertAt = 2;
    }
    if (marker === SOS) {
      // Entropy-coded data runs to the next marker that is neither a stuffed 0xFF00 nor a restart.
      const start = pos;
      while (pos < bytes.byteLength) {
        if (bytes[pos] === 0xff) {
          const next = bytes[pos + 1];
          if (next === undefined) {
            break;
          }
          if (next !== 0x00 && next !== 0xff && !(next >= 0xd0 && next <= 0xd7)) {
            break;
          }
        }
        pos++;
      }
      kept.push(bytes.subarray(start, pos));
    }
  }
  if (!ended) {
    throw unreadable("no JPEG end marker");
  }
  if (pos < bytes.byteLength) {
    removed.add("trailer");
  }
  if (orientation !== null && orientation !== 1) {
    kept.splice(insertAt, 0, orientationSegment(orientation));
  }
  return { bytes: concat(kept), removed: [...removed] };
}

// --- PNG -------------------------------------------------------------------------------------------

/** Text and EXIF chunks: where encoders and phones put captions, software, times and positions. */
const PNG_DROP: Record<string, string> = { eXIf: "exif", tEXt: "text", zTXt: "text", iTXt: "text" };

function stripPng(bytes: Uint8Array): CleanImage {
  if (bytes.byteLength < 8) {
    throw unreadable("truncated signature");
  }
  const view = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  const kept: Uint8Array[] = [bytes.subarray(0, 8)];
  const removed = new Set<string>();
  let pos = 8;
  let first = true;
  while (true) {
    if (pos + 12 > bytes.byteLength) {
      throw unreadable("no IEND chunk");
    }
    const length = view.getUint32(pos);
    const type = ascii(bytes, pos + 4, 4);
    const end = pos + 12 + length;
    if (length > 0x7fffffff || end > bytes.byteLength) {
      throw unreadable("chunk runs past the end");
    }
    if (first && type !== "IHDR") {
      throw unreadable("IHDR is not the first chunk");
    }
    first = false;
    const dropped = PNG_DROP[type];
    if (dropped) {
      removed.add(dropped);
    } else {
      kept.push(bytes.subarray(pos, end));
    }
    pos = end;
    if (type === "IEND") {
      break;
    }
  }
  if (pos < bytes.byteLength) {
    removed.add("trailer");
  }
  return { bytes: concat(kept), removed: [...removed] };
}

// --- WebP ------------------------------------------------------------------------------------------

const VP8X_EXIF = 0x08;
const VP8X_XMP = 0x04;

function stripWebp(bytes: Uint8Array): CleanImage {
  if (bytes.byteLength < 12 || ascii(bytes, 0, 4) !== "RIFF" || ascii(bytes, 8, 4) !== "WEBP") {
    throw unreadable("not a RIFF WebP container");
  }
  const view = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  const riffEnd = 8 + view.getUint32(4, true);
  if (riffEnd > bytes.byteLength || riffEnd < 12) {
    throw unreadable("RIFF size runs past the end");
  }
  const chunks: Uint8Array[] = [];
  const removed = new Set<string>();
  let pos = 12;
  let image = false;
  while (pos < riffEnd) {
    if (pos + 8 > riffEnd) {
      throw unreadable("truncated chunk header");
    }
    const fourcc = ascii(bytes, pos, 4);
    const size = view.getUint32(pos + 4, true);
    const end = pos + 8 + size + (size % 2);
    if (end > riffEnd) {
      throw unreadable("chunk runs past the end");
    }
    if (fourcc === "EXIF") {
      removed.add("exif");
    } else if (fourcc === "XMP ") {
      removed.add("xmp");
    } else if (fourcc === "VP8X") {
      if (size < 10) {
        throw unreadable("short VP8X chunk");
      }
      const copy = bytes.slice(pos, end);
      copy[8] = (copy[8] ?? 0) & ~(VP8X_EXIF | VP8X_XMP);
      chunks.push(copy);
    } else {
      image ||= fourcc === "VP8 " || fourcc === "VP8L" || fourcc === "ANIM";
      chunks.push(bytes.subarray(pos, end));
    }
    pos = end;
  }
  if (!image) {
    throw unreadable("no image data");
  }
  if (riffEnd < bytes.byteLength) {
    removed.add("trailer");
  }
  const body = concat(chunks);
  const header = new Uint8Array(12);
  header.set(bytes.subarray(0, 4));
  new DataView(header.buffer).setUint32(4, body.byteLength + 4, true);
  header.set(bytes.subarray(8, 12), 8);
  return { bytes: concat([header, body]), removed: [...removed] };
}
