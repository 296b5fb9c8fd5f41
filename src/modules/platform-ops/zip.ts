import { inflateSync, Zip, ZipDeflate, ZipPassThrough } from "fflate";

/**
 * ZIP in bounded memory on both sides (docs/adr/0026-tenant-archive.md).
 *
 * Writing: fflate's streaming `Zip` hands its output to an R2 multipart upload in parts of `PART_BYTES`,
 * so the whole archive never sits in memory: at most one part plus the entry being added.
 * Reading: the central directory is read from the end of the R2 object, and each entry with a ranged
 * GET, so an import holds one entry at a time, never the archive.
 */

/** SHA-256 of bytes, as hex: every manifest entry's digest. */
export async function sha256Hex(bytes: Uint8Array): Promise<string> {
  const digest = await crypto.subtle.digest("SHA-256", bytes);
  return [...new Uint8Array(digest)].map((b) => b.toString(16).padStart(2, "0")).join("");
}

/** R2 wants every part but the last the same size, at least 5 MiB. */
export const PART_BYTES = 8 * 1024 * 1024;

export class ZipToR2 {
  private readonly zip: Zip;
  private pending: Uint8Array[] = [];
  private pendingBytes = 0;
  private readonly parts: R2UploadedPart[] = [];
  private failure: Error | null = null;
  private finished = false;
  /** Bytes written to the archive so far. */
  bytes = 0;

  private constructor(private readonly upload: R2MultipartUpload) {
    this.zip = new Zip((error, chunk, final) => {
      if (error) {
        this.failure = error;
        return;
      }
      this.pending.push(chunk);
      this.pendingBytes += chunk.byteLength;
      this.bytes += chunk.byteLength;
      if (final) {
        this.finished = true;
      }
    });
  }

  static async open(bucket: R2Bucket, key: string): Promise<ZipToR2> {
    const upload = await bucket.createMultipartUpload(key, {
      httpMetadata: { contentType: "application/zip" },
    });
    return new ZipToR2(upload);
  }

  /** Adds one entry: deflated (JSON) or stored as is (images and PDFs are compressed already). */
  async add(path: string, data: Uint8Array, compress: boolean): Promise<void> {
    const entry = compress ? new ZipDeflate(path, { level: 6 }) : new ZipPassThrough(path);
    this.zip.add(entry);
    entry.push(data, true);
    this.check();
    await this.flush(false);
  }

  /**
   * Adds one entry from a stream (a workbook being written page by page), chunk by chunk: memory holds
   * one chunk and the pending part, never the entry. Returns its size and SHA-256 for the manifest.
   */
  async addStream(
    path: string,
    body: ReadableStream<Uint8Array>,
    compress: boolean,
  ): Promise<{ bytes: number; sha256: string }> {
    const entry = compress ? new ZipDeflate(path, { level: 6 }) : new ZipPassThrough(path);
    this.zip.add(entry);
    const digest = new crypto.DigestStream("SHA-256");
    const hashing = digest.getWriter();
    let bytes = 0;
    const reader = body.getReader();
    for (;;) {
      const { done, value } = await reader.read();
      if (done) {
        break;
      }
      bytes += value.byteLength;
      await hashing.write(value);
      entry.push(value, false);
      this.check();
      await this.flush(false);
    }
    entry.push(new Uint8Array(0), true);
    this.check();
    await this.flush(false);
    await hashing.close();
    const hash = [...new Uint8Array(await digest.digest)]
      .map((b) => b.toString(16).padStart(2, "0"))
      .join("");
    return { bytes, sha256: hash };
  }

  /** Writes the central directory, uploads the last part and completes the object. */
  async close(): Promise<{ bytes: number }> {
    this.zip.end();
    this.check();
    if (!this.finished) {
      throw new Error("zip stream did not finish");
    }
    await this.flush(true);
    await this.upload.complete(this.parts);
    return { bytes: this.bytes };
  }

  /** Drops the unfinished upload (R2 keeps no part of it). */
  async abort(): Promise<void> {
    await this.upload.abort().catch(() => undefined);
  }

  private check(): void {
    if (this.failure) {
      throw this.failure;
    }
  }

  private async flush(last: boolean): Promise<void> {
    while (this.pendingBytes >= PART_BYTES || (last && this.pendingBytes > 0)) {
      const size = Math.min(PART_BYTES, this.pendingBytes);
      const part = new Uint8Array(size);
      let filled = 0;
      while (filled < size) {
        const head = this.pending[0] as Uint8Array;
        const take = Math.min(head.byteLength, size - filled);
        part.set(head.subarray(0, take), filled);
        filled += take;
        if (take === head.byteLength) {
          this.pending.shift();
        } else {
          this.pending[0] = head.subarray(take);
        }
      }
      this.pendingBytes -= size;
      this.parts.push(await this.upload.uploadPart(this.parts.length + 1, part));
    }
  }
}

export interface ZipEntry {
  name: string;
  method: number;
  compressedSize: number;
  size: number;
  offset: number;
}

/** Why an archive cannot be read; the caller turns it into a 422. */
export class ZipFormatError extends Error {}

const u16 = (view: DataView, at: number) => view.getUint16(at, true);
const u32 = (view: DataView, at: number) => view.getUint32(at, true);

async function range(bucket: R2Bucket, key: string, offset: number, length: number): Promise<Uint8Array> {
  if (length === 0) {
    return new Uint8Array(0);
  }
  const object = await bucket.get(key, { range: { offset, length } });
  if (!object) {
    throw new ZipFormatError("the archive object is missing");
  }
  const bytes = new Uint8Array(await object.arrayBuffer());
  if (bytes.byteLength !== length) {
    throw new ZipFormatError("the archive is truncated");
  }
  return bytes;
}

/** Reads a ZIP's central directory from an R2 object (no ZIP64: archives stay under 4 GiB). */
export async function readZipDirectory(bucket: R2Bucket, key: string, size: number): Promise<ZipEntry[]> {
  if (size < 22) {
    throw new ZipFormatError("not a ZIP archive");
  }
  const tailLength = Math.min(size, 22 + 0xffff);
  const tail = await range(bucket, key, size - tailLength, tailLength);
  const view = new DataView(tail.buffer, tail.byteOffset, tail.byteLength);
  let eocd = -1;
  for (let at = tail.byteLength - 22; at >= 0; at--) {
    if (u32(view, at) === 0x06054b50) {
      eocd = at;
      break;
    }
  }
  if (eocd < 0) {
    throw new ZipFormatError("not a ZIP archive (no end of central directory)");
  }
  const count = u16(view, eocd + 10);
  const dirSize = u32(view, eocd + 12);
  const dirOffset = u32(view, eocd + 16);
  if (dirOffset + dirSize > size) {
    throw new ZipFormatError("the central directory points past the end of the archive");
  }
  const dir = await range(bucket, key, dirOffset, dirSize);
  const d = new DataView(dir.buffer, dir.byteOffset, dir.byteLength);
  const entries: ZipEntry[] = [];
  const decoder = new TextDecoder("utf-8", { fatal: true, ignoreBOM: false });
  let at = 0;
  for (let i = 0; i < count; i++) {
    if (at + 46 > dir.byteLength || u32(d, at) !== 0x02014b50) {
      throw new ZipFormatError("the central directory is damaged");
    }
    const nameLength = u16(d, at + 28);
    const skip = nameLength + u16(d, at + 30) + u16(d, at + 32);
    if (at + 46 + skip > dir.byteLength) {
      throw new ZipFormatError("the central directory is damaged");
    }
    let name: string;
    try {
      name = decoder.decode(dir.subarray(at + 46, at + 46 + nameLength));
    } catch {
      throw new ZipFormatError("an entry name is not UTF-8");
    }
    entries.push({
      name,
      method: u16(d, at + 10),
      compressedSize: u32(d, at + 20),
      size: u32(d, at + 24),
      offset: u32(d, at + 42),
    });
    at += 46 + skip;
  }
  return entries;
}

/** One entry's bytes, inflated; refuses methods other than stored and deflate, and sizes over `max`. */
export async function readZipEntry(
  bucket: R2Bucket,
  key: string,
  entry: ZipEntry,
  max: number,
): Promise<Uint8Array> {
  if (entry.size > max || entry.compressedSize > max) {
    throw new ZipFormatError(`${entry.name} is larger than ${max} bytes`);
  }
  const header = await range(bucket, key, entry.offset, 30);
  const h = new DataView(header.buffer, header.byteOffset, header.byteLength);
  if (u32(h, 0) !== 0x04034b50) {
    throw new ZipFormatError(`${entry.name}: bad local header`);
  }
  const start = entry.offset + 30 + u16(h, 26) + u16(h, 28);
  const data = await range(bucket, key, start, entry.compressedSize);
  if (entry.method === 0) {
    return data;
  }
  if (entry.method !== 8) {
    throw new ZipFormatError(`${entry.name}: compression method ${entry.method} is not supported`);
  }
  try {
    const out = inflateSync(data, { out: new Uint8Array(entry.size) });
    if (out.byteLength !== entry.size) {
      throw new ZipFormatError(`${entry.name}: inflated size differs from the directory`);
    }
    return out;
  } catch (error) {
    if (error instanceof ZipFormatError) {
      throw error;
    }
    throw new ZipFormatError(`${entry.name}: the compressed data is damaged`);
  }
}
