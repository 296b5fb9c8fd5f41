/**
 * Real images for the file store's tests. The three bases were encoded by Chromium (a 4×3 canvas:
 * `toDataURL("image/jpeg" | "image/webp" | "image/png")`); the builders below add what phones add
 * (EXIF with a GPS position, XMP, comments, text chunks, trailers) byte by byte, so a test can check
 * that stripping gives back exactly the clean picture.
 */
const fromBase64 = (b64: string) => Uint8Array.from(atob(b64), (c) => c.charCodeAt(0));
const text = (s: string) => new TextEncoder().encode(s);

export const CLEAN_JPEG = fromBase64(
  "/9j/4AAQSkZJRgABAQAAAQABAAD/4gHYSUNDX1BST0ZJTEUAAQEAAAHIAAAAAAQwAABtbnRyUkdCIFhZWiAH4AABAAEAAAAAAABhY3NwAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAQAA9tYAAQAAAADTLQAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAlkZXNjAAAA8AAAACRyWFlaAAABFAAAABRnWFlaAAABKAAAABRiWFlaAAABPAAAABR3dHB0AAABUAAAABRyVFJDAAABZAAAAChnVFJDAAABZAAAAChiVFJDAAABZAAAAChjcHJ0AAABjAAAADxtbHVjAAAAAAAAAAEAAAAMZW5VUwAAAAgAAAAcAHMAUgBHAEJYWVogAAAAAAAAb6IAADj1AAADkFhZWiAAAAAAAABimQAAt4UAABjaWFlaIAAAAAAAACSgAAAPhAAAts9YWVogAAAAAAAA9tYAAQAAAADTLXBhcmEAAAAAAAQAAAACZmYAAPKnAAANWQAAE9AAAApbAAAAAAAAAABtbHVjAAAAAAAAAAEAAAAMZW5VUwAAACAAAAAcAEcAbwBvAGcAbABlACAASQBuAGMALgAgADIAMAAxADb/2wBDAAYEBQYFBAYGBQYHBwYIChAKCgkJChQODwwQFxQYGBcUFhYaHSUfGhsjHBYWICwgIyYnKSopGR8tMC0oMCUoKSj/2wBDAQcHBwoIChMKChMoGhYaKCgoKCgoKCgoKCgoKCgoKCgoKCgoKCgoKCgoKCgoKCgoKCgoKCgoKCgoKCgoKCgoKCj/wAARCAADAAQDASIAAhEBAxEB/8QAFQABAQAAAAAAAAAAAAAAAAAAAAb/xAAYEAADAQEAAAAAAAAAAAAAAAAAAQIRIf/EABUBAQEAAAAAAAAAAAAAAAAAAAYH/8QAGhEBAQACAwAAAAAAAAAAAAAAAQIAEQMhQf/aAAwDAQACEQMRAD8Alap09fWAA9VNLVO1ymxE8ckQaDoDzP/Z",
);
export const CLEAN_WEBP = fromBase64(
  "UklGRjACAABXRUJQVlA4WAoAAAAgAAAAAwAAAgAASUNDUMgBAAAAAAHIAAAAAAQwAABtbnRyUkdCIFhZWiAH4AABAAEAAAAAAABhY3NwAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAQAA9tYAAQAAAADTLQAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAlkZXNjAAAA8AAAACRyWFlaAAABFAAAABRnWFlaAAABKAAAABRiWFlaAAABPAAAABR3dHB0AAABUAAAABRyVFJDAAABZAAAAChnVFJDAAABZAAAAChiVFJDAAABZAAAAChjcHJ0AAABjAAAADxtbHVjAAAAAAAAAAEAAAAMZW5VUwAAAAgAAAAcAHMAUgBHAEJYWVogAAAAAAAAb6IAADj1AAADkFhZWiAAAAAAAABimQAAt4UAABjaWFlaIAAAAAAAACSgAAAPhAAAts9YWVogAAAAAAAA9tYAAQAAAADTLXBhcmEAAAAAAAQAAAACZmYAAPKnAAANWQAAE9AAAApbAAAAAAAAAABtbHVjAAAAAAAAAAEAAAAMZW5VUwAAACAAAAAcAEcAbwBvAGcAbABlACAASQBuAGMALgAgADIAMAAxADZWUDggQgAAAPABAJ0BKgQAAwABQCYlsAJ0ugB+AARMAAD+71J51Jv9sEE5ExsZ4lztjQ/+ufWv91/5/++5/jzn/1LP/qWf3kAAAA==",
);
export const CLEAN_PNG = fromBase64(
  "iVBORw0KGgoAAAANSUhEUgAAAAQAAAADCAYAAAC09K7GAAAAL0lEQVR4AVzIMQ0AQAgEQXJuPq8AWyjABVrocAa5goZNplk8z6bS3wQ5IdKE9g8AAAD//xJ6zeQAAAAGSURBVAMArWYMk4CKkNYAAAAASUVORK5CYII=",
);

export function concat(...parts: Uint8Array[]): Uint8Array {
  const out = new Uint8Array(parts.reduce((n, p) => n + p.byteLength, 0));
  let at = 0;
  for (const p of parts) {
    out.set(p, at);
    at += p.byteLength;
  }
  return out;
}

/** A little-endian TIFF block as a phone writes it: Make, Orientation, and a GPS IFD (6°12'34.56" S). */
export function exifTiff(orientation = 6): Uint8Array {
  const tiff = new Uint8Array(112);
  const v = new DataView(tiff.buffer);
  tiff.set(text("II"), 0);
  v.setUint16(2, 42, true);
  v.setUint32(4, 8, true);
  v.setUint16(8, 3, true);
  const entry = (at: number, tag: number, type: number, count: number, value: number) => {
    v.setUint16(at, tag, true);
    v.setUint16(at + 2, type, true);
    v.setUint32(at + 4, count, true);
    v.setUint32(at + 8, value, true);
  };
  entry(10, 0x010f, 2, 8, 50); // Make → "SAMSUNG\0" at 50
  entry(22, 0x0112, 3, 1, orientation);
  entry(34, 0x8825, 4, 1, 58); // GPS IFD at 58
  v.setUint32(46, 0, true);
  tiff.set(text("SAMSUNG\0"), 50);
  v.setUint16(58, 2, true);
  entry(60, 0x0001, 2, 2, 0x53); // GPSLatitudeRef "S"
  entry(72, 0x0002, 5, 3, 88); // GPSLatitude → 3 rationals at 88
  v.setUint32(84, 0, true);
  for (const [i, [num, den]] of [
    [6, 1],
    [12, 1],
    [3456, 100],
  ].entries()) {
    v.setUint32(88 + i * 8, num ?? 0, true);
    v.setUint32(92 + i * 8, den ?? 1, true);
  }
  return tiff;
}

const XMP = text(
  '<x:xmpmeta xmlns:x="adobe:ns:meta/"><exif:GPSLatitude>6,12.576S</exif:GPSLatitude></x:xmpmeta>',
);

function jpegSegment(marker: number, payload: Uint8Array): Uint8Array {
  const length = payload.byteLength + 2;
  return concat(new Uint8Array([0xff, marker, length >> 8, length & 0xff]), payload);
}

/** Where Chromium's JFIF APP0 ends: SOI (2) + APP0 marker and length (4) + 14 bytes. */
const AFTER_APP0 = 20;

/** A phone's JPEG: EXIF (GPS, Make, orientation), XMP, IPTC, a comment, and a trailer after EOI. */
export function jpegFromPhone(orientation = 6): Uint8Array {
  const exif = jpegSegment(0xe1, concat(text("Exif\0\0"), exifTiff(orientation)));
  const xmp = jpegSegment(0xe1, concat(text("http://ns.adobe.com/xap/1.0/\0"), XMP));
  const iptc = jpegSegment(0xed, text("Photoshop 3.0\x008BIM\x04\x04\x00\x00\x00\x00\x00\x0cKampung Baru"));
  const comment = jpegSegment(0xfe, text("Foto oleh Budi, Jl. Melati 7"));
  return concat(
    CLEAN_JPEG.subarray(0, AFTER_APP0),
    exif,
    xmp,
    iptc,
    CLEAN_JPEG.subarray(AFTER_APP0, CLEAN_JPEG.byteLength - 2),
    comment,
    CLEAN_JPEG.subarray(CLEAN_JPEG.byteLength - 2),
    text("MotionPhoto_Data\0\0\0\x18ftypmp42"),
  );
}

/** What the clean JPEG becomes with its orientation kept: one EXIF entry, big-endian, after APP0. */
export function jpegWithOrientation(orientation: number): Uint8Array {
  const exif = jpegSegment(
    0xe1,
    new Uint8Array([
      ...text("Exif\0\0"),
      ...[0x4d, 0x4d, 0, 0x2a, 0, 0, 0, 8, 0, 1],
      ...[0x01, 0x12, 0, 3, 0, 0, 0, 1, 0, orientation, 0, 0],
      ...[0, 0, 0, 0],
    ]),
  );
  return concat(CLEAN_JPEG.subarray(0, AFTER_APP0), exif, CLEAN_JPEG.subarray(AFTER_APP0));
}

const CRC_TABLE = Array.from({ length: 256 }, (_, n) => {
  let c = n;
  for (let k = 0; k < 8; k++) {
    c = c & 1 ? 0xedb88320 ^ (c >>> 1) : c >>> 1;
  }
  return c >>> 0;
});
function crc32(bytes: Uint8Array): number {
  let c = 0xffffffff;
  for (const b of bytes) {
    c = (CRC_TABLE[(c ^ b) & 0xff] ?? 0) ^ (c >>> 8);
  }
  return (c ^ 0xffffffff) >>> 0;
}

function pngChunk(type: string, data: Uint8Array): Uint8Array {
  const out = new Uint8Array(12 + data.byteLength);
  const v = new DataView(out.buffer);
  v.setUint32(0, data.byteLength);
  out.set(text(type), 4);
  out.set(data, 8);
  v.setUint32(8 + data.byteLength, crc32(out.subarray(4, 8 + data.byteLength)));
  return out;
}

/** After the signature (8) and IHDR (12 + 13). */
const AFTER_IHDR = 33;

/** A PNG with eXIf (GPS), tEXt, zTXt-free iTXt XMP, and bytes after IEND. */
export function pngFromPhone(): Uint8Array {
  return concat(
    CLEAN_PNG.subarray(0, AFTER_IHDR),
    pngChunk("eXIf", exifTiff()),
    pngChunk("tEXt", text("Software\0Kamera Budi")),
    pngChunk("iTXt", concat(text("XML:com.adobe.xmp\0\0\0\0\0"), XMP)),
    CLEAN_PNG.subarray(AFTER_IHDR),
    text("trailing"),
  );
}

function riffChunk(fourcc: string, data: Uint8Array): Uint8Array {
  const padded = data.byteLength % 2 ? concat(data, new Uint8Array(1)) : data;
  const head = new Uint8Array(8);
  head.set(text(fourcc));
  new DataView(head.buffer).setUint32(4, data.byteLength, true);
  return concat(head, padded);
}

/** An extended WebP with EXIF and XMP chunks (and their VP8X flags set). */
export function webpFromPhone(): Uint8Array {
  const body = concat(CLEAN_WEBP.subarray(12), riffChunk("EXIF", exifTiff()), riffChunk("XMP ", XMP));
  const out = concat(CLEAN_WEBP.subarray(0, 12), body);
  new DataView(out.buffer).setUint32(4, body.byteLength + 4, true);
  out[20] = (out[20] ?? 0) | 0x08 | 0x04;
  return out;
}
