import { Inflate, zipSync } from "fflate";
import { Invalid } from "../../core/errors";

/**
 * What an uploaded .xlsx may cost before anything parses it (issue 31, N8: an 11.7 KB upload took 2 s,
 * and a 5 MiB one could inflate past a Worker's memory). The ZIP's central directory is read first;
 * the declared sizes must fit the caps, the sheets the caller needs must be there, and only the parts
 * those sheets need are inflated, each through a counting inflater that stops at the cap whatever the
 * directory claimed. The parser then sees a small archive of just those parts.
 */
export const XLSX_LIMITS = {
  /** All parts of the workbook, inflated, as the directory declares them. */
  totalBytes: 48 * 1024 * 1024,
  /** Any one part, inflated (declared, and counted while inflating). */
  partBytes: 24 * 1024 * 1024,
  /** Parts in the archive: a workbook has a few dozen. */
  entries: 1000,
} as const;

/** Which sheets a reader uses: names compared trimmed and case-insensitively. */
export interface SheetWant {
  required: readonly string[];
  optional?: readonly string[];
}

interface ZipEntry {
  name: string;
  method: number;
  compressedSize: number;
  size: number;
  offset: number;
}

const u16 = (view: DataView, at: number) => view.getUint16(at, true);
const u32 = (view: DataView, at: number) => view.getUint32(at, true);

function unreadable(message = "not a readable .xlsx file"): Invalid {
  return new Invalid("invalid_spreadsheet", message, [{ field: "file", message }]);
}

function tooLarge(message: string): Invalid {
  return new Invalid("spreadsheet_too_large", message, [{ field: "file", message }]);
}

/**
 * The central directory, from the end-of-directory record (no ZIP64: an upload is a few MiB), refused
 * when the sizes it declares are past the caps.
 */
function zipDirectory(bytes: Uint8Array): ZipEntry[] {
  const view = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  let eocd = -1;
  for (let at = bytes.byteLength - 22; at >= Math.max(0, bytes.byteLength - 22 - 0xffff); at--) {
    if (u32(view, at) === 0x06054b50) {
      eocd = at;
      break;
    }
  }
  if (eocd < 0) {
    throw unreadable();
  }
  const count = u16(view, eocd + 10);
  const dirOffset = u32(view, eocd + 16);
  if (count > XLSX_LIMITS.entries) {
    throw tooLarge(`The workbook has more than ${XLSX_LIMITS.entries} parts.`);
  }
  const entries = directoryEntries(bytes, view, dirOffset, count);
  const declared = entries.reduce((n, e) => n + e.size, 0);
  if (declared > XLSX_LIMITS.totalBytes || entries.some((e) => e.size > XLSX_LIMITS.partBytes)) {
    throw tooLarge(
      `The workbook inflates past ${XLSX_LIMITS.totalBytes} bytes in all or ${XLSX_LIMITS.partBytes} in one part.`,
    );
  }
  return entries;
}

function directoryEntries(bytes: Uint8Array, view: DataView, dirOffset: number, count: number): ZipEntry[] {
  const entries: ZipEntry[] = [];
  const decoder = new TextDecoder();
  let at = dirOffset;
  for (let i = 0; i < count; i++) {
    if (at + 46 > bytes.byteLength || u32(view, at) !== 0x02014b50) {
      throw unreadable();
    }
    const nameLength = u16(view, at + 28);
    entries.push({
      name: decoder.decode(bytes.subarray(at + 46, at + 46 + nameLength)),
      method: u16(view, at + 10),
      compressedSize: u32(view, at + 20),
      size: u32(view, at + 24),
      offset: u32(view, at + 42),
    });
    at += 46 + nameLength + u16(view, at + 30) + u16(view, at + 32);
  }
  return entries;
}

/** 4 KiB of deflate inflates to at most ~4 MiB, so the count is checked at least that often. */
const INFLATE_STEP = 4 * 1024;

/**
 * One part's bytes, inflated chunk by chunk through a counter that refuses past `cap` (declared sizes
 * may lie): a reader that parses as it goes never holds the whole part.
 */
function* inflateChunks(bytes: Uint8Array, entry: ZipEntry, cap: number): Generator<Uint8Array> {
  const view = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  if (entry.offset + 30 > bytes.byteLength || u32(view, entry.offset) !== 0x04034b50) {
    throw unreadable();
  }
  const start = entry.offset + 30 + u16(view, entry.offset + 26) + u16(view, entry.offset + 28);
  const data = bytes.subarray(start, start + entry.compressedSize);
  if (data.byteLength !== entry.compressedSize) {
    throw unreadable();
  }
  const refuse = () => tooLarge(`The workbook part ${entry.name} inflates past ${cap} bytes.`);
  if (entry.method === 0) {
    if (data.byteLength > cap) {
      throw refuse();
    }
    yield data;
    return;
  }
  if (entry.method !== 8) {
    throw unreadable();
  }
  let chunks: Uint8Array[] = [];
  let size = 0;
  const inflater = new Inflate((chunk) => {
    size += chunk.byteLength;
    if (size > cap) {
      throw refuse();
    }
    chunks.push(chunk);
  });
  for (let at = 0; at < data.byteLength || at === 0; at += INFLATE_STEP) {
    try {
      inflater.push(data.subarray(at, at + INFLATE_STEP), at + INFLATE_STEP >= data.byteLength);
    } catch (error) {
      throw error instanceof Invalid ? error : unreadable();
    }
    const out = chunks;
    chunks = [];
    yield* out;
  }
}

function concat(chunks: readonly Uint8Array[]): Uint8Array {
  const out = new Uint8Array(chunks.reduce((n, c) => n + c.byteLength, 0));
  let filled = 0;
  for (const chunk of chunks) {
    out.set(chunk, filled);
    filled += chunk.byteLength;
  }
  return out;
}

/**
 * An uploaded .xlsx opened by its central directory (checked against XLSX_LIMITS at once), whose parts
 * are inflated on demand, all of them together within `XLSX_LIMITS.totalBytes` whatever the directory
 * declared, each within `XLSX_LIMITS.partBytes`.
 */
export class XlsxArchive {
  private readonly byName: Map<string, ZipEntry>;
  private budget: number = XLSX_LIMITS.totalBytes;

  constructor(private readonly bytes: Uint8Array) {
    this.byName = new Map(zipDirectory(bytes).map((e) => [e.name, e]));
  }

  has(name: string): boolean {
    return this.byName.has(name);
  }

  /** The part inflated chunk by chunk (nothing when the archive lacks it). */
  *chunks(name: string): Generator<Uint8Array> {
    const entry = this.byName.get(name);
    if (!entry) {
      return;
    }
    for (const chunk of inflateChunks(this.bytes, entry, Math.min(XLSX_LIMITS.partBytes, this.budget))) {
      this.budget -= chunk.byteLength;
      yield chunk;
    }
  }

  /** The whole part, or null when the archive lacks it. */
  part(name: string): Uint8Array | null {
    return this.has(name) ? concat([...this.chunks(name)]) : null;
  }

  text(name: string): string | null {
    const data = this.part(name);
    return data ? new TextDecoder().decode(data) : null;
  }
}

const XML_ENTITIES: Record<string, string> = { amp: "&", lt: "<", gt: ">", quot: '"', apos: "'" };
const unescapeXml = (text: string) =>
  text.replace(/&(amp|lt|gt|quot|apos);/g, (_, e: string) => XML_ENTITIES[e] ?? "");
const attribute = (tag: string, name: string) =>
  unescapeXml(new RegExp(`\\s${name}\\s*=\\s*"([^"]*)"`).exec(tag)?.[1] ?? "");

/** A part path relative to the folder of `base` (`worksheets/sheet1.xml` from `xl/workbook.xml`). */
function resolvePart(base: string, target: string): string {
  if (target.startsWith("/")) {
    return target.slice(1);
  }
  const parts = base.split("/").slice(0, -1);
  for (const segment of target.split("/")) {
    if (segment === "..") {
      parts.pop();
    } else if (segment !== ".") {
      parts.push(segment);
    }
  }
  return parts.join("/");
}

const relsOf = (part: string) => {
  const at = part.lastIndexOf("/");
  return `${part.slice(0, at + 1)}_rels/${part.slice(at + 1)}.rels`;
};

function relationships(xml: string): { id: string; type: string; target: string }[] {
  return [...xml.matchAll(/<(?:\w+:)?Relationship\b[^>]*>/g)].map((m) => ({
    id: attribute(m[0], "Id"),
    type: attribute(m[0], "Type"),
    target: attribute(m[0], "Target"),
  }));
}

const EMPTY_SHEET =
  '<?xml version="1.0" encoding="UTF-8"?><worksheet xmlns="http://schemas.openxmlformats.org/spreadsheetml/2006/main"><sheetData/></worksheet>';

/** What a reader needs of a workbook's layout: its sheets in order, and the shared parts' names. */
export interface WorkbookLayout {
  bookName: string;
  /** The workbook part's XML (`<workbookPr date1904>` and the sheet list). */
  book: string;
  /** Every sheet in workbook order, with its part when the workbook links one. */
  sheets: { name: string; part: string | null }[];
  styles: string | null;
  sharedStrings: string | null;
}

const sheetKey = (name: string) => name.trim().toLowerCase();

/**
 * The workbook's layout, read through `take` (the package relationships, the workbook and its
 * relationships); 400 `spreadsheet_sheet_missing` when a sheet `want` requires is absent.
 */
export function workbookLayout(take: (name: string) => Uint8Array | null, want?: SheetWant): WorkbookLayout {
  const text = (name: string) => {
    const data = take(name);
    return data ? new TextDecoder().decode(data) : null;
  };
  const root = relationships(text("_rels/.rels") ?? "").find((r) => r.type.endsWith("/officeDocument"));
  const bookName = root ? resolvePart("", root.target) : "xl/workbook.xml";
  const book = text(bookName);
  if (book === null) {
    throw unreadable();
  }
  const bookRels = relationships(text(relsOf(bookName)) ?? "");
  const sheets = [...book.matchAll(/<(?:\w+:)?sheet\b[^>]*>/g)].map((m) => {
    const target = bookRels.find((r) => r.id === attribute(m[0], "r:id"))?.target;
    return { name: attribute(m[0], "name"), part: target ? resolvePart(bookName, target) : null };
  });
  if (want) {
    const missing = want.required.filter((name) => !sheets.some((s) => sheetKey(s.name) === sheetKey(name)));
    if (missing.length > 0) {
      const message = `The workbook has no sheet "${missing.join('", "')}" (it has: ${sheets.map((s) => s.name).join(", ")}).`;
      throw new Invalid("spreadsheet_sheet_missing", message, [{ field: missing[0] ?? "file", message }]);
    }
  }
  const partOf = (type: string) => {
    const rel = bookRels.find((r) => r.type.endsWith(type));
    return rel ? resolvePart(bookName, rel.target) : null;
  };
  return { bookName, book, sheets, styles: partOf("/styles"), sharedStrings: partOf("/sharedStrings") };
}

/** Does a reader of `want` use this sheet (every sheet without `want`)? */
export function sheetUsed(name: string, want?: SheetWant): boolean {
  return !want || [...want.required, ...(want.optional ?? [])].some((w) => sheetKey(w) === sheetKey(name));
}

/**
 * The parts of an .xlsx that reading `want`'s sheets needs, checked against XLSX_LIMITS, as a new
 * small (stored) ZIP, and the names of the sheets it holds in workbook order. A sheet the reader does
 * not use is replaced by an empty one, so the parser never inflates or walks it. Without `want`, every
 * sheet is read (still within the caps). 400 `spreadsheet_sheet_missing` when a required sheet is absent.
 */
export function workbookParts(bytes: Uint8Array, want?: SheetWant): { zip: Uint8Array; sheets: string[] } {
  const archive = new XlsxArchive(bytes);
  const kept: Record<string, Uint8Array> = {};
  const take = (name: string): Uint8Array | null => {
    const data = kept[name] ?? archive.part(name);
    if (data) {
      kept[name] = data;
    }
    return data;
  };
  take("[Content_Types].xml");
  const layout = workbookLayout(take, want);
  for (const part of [layout.styles, layout.sharedStrings]) {
    if (part) {
      take(part);
    }
  }
  const read: string[] = [];
  for (const sheet of layout.sheets) {
    if (!sheet.part) {
      continue;
    }
    if (sheetUsed(sheet.name, want)) {
      take(sheet.part);
      read.push(sheet.name);
    } else {
      kept[sheet.part] = new TextEncoder().encode(EMPTY_SHEET);
    }
  }
  // The parser opens every part the content types name: name only the parts kept.
  const types = kept["[Content_Types].xml"];
  if (types) {
    kept["[Content_Types].xml"] = new TextEncoder().encode(
      new TextDecoder()
        .decode(types)
        .replace(/<(?:\w+:)?Override\b[^>]*>/g, (tag) =>
          kept[attribute(tag, "PartName").replace(/^\//, "")] ? tag : "",
        ),
    );
  }
  return { zip: zipSync(kept, { level: 0 }), sheets: read };
}
