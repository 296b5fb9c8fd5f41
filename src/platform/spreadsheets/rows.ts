import { Invalid } from "../../core/errors";
import type { CellIn } from "./cells";
import { type SheetWant, sheetUsed, workbookLayout, XlsxArchive } from "./xlsx-parts";

/**
 * Reading an uploaded .xlsx row by row (ADR 0037), for a reader that checks each row and keeps only
 * what it needs: the sheet's part is inflated chunk by chunk and its `<row>` elements are parsed as
 * they arrive, so memory holds the upload, the shared strings and one chunk, never the sheet, its XML
 * or a model of every cell (SheetJS's `readWorkbook` holds all three: ~170 MiB for 18,000 persons).
 * The same caps as `readWorkbook` (XLSX_LIMITS, checked from the ZIP directory and while inflating),
 * and the same cells: strings trimmed, empty as null, numbers as their digits, date cells (by their
 * number format) as YYYY-MM-DD, booleans as TRUE/FALSE, errors as null.
 */

export interface RowIn {
  /** The row's number in the sheet, 1 for the first row (Excel's own numbering). */
  line: number;
  /** The row's cells from column A, trailing empty ones dropped. */
  cells: CellIn[];
}

export interface SheetRows {
  name: string;
  /** The sheet's rows in order, empty rows left out; each call reads the part again. */
  rows: () => Generator<RowIn>;
}

function unreadable(message = "not a readable .xlsx file"): Invalid {
  return new Invalid("invalid_spreadsheet", message, [{ field: "file", message }]);
}

/**
 * A copy of `text` that does not keep the chunk it was cut from alive: V8 cuts a substring of 13 or
 * more characters as a view into its parent, so a kept NIK or name would hold the whole decoded chunk
 * (and the import keeps 18,000 of them). Concatenating then slicing makes V8 flatten a new string.
 */
function own(text: string): string {
  return text.length < 13 ? text : `${text} `.slice(0, -1);
}

const ENTITIES: Record<string, string> = { amp: "&", lt: "<", gt: ">", quot: '"', apos: "'" };

/** XML text to a string: entities, character references, and Excel's `_xHHHH_` escapes. */
function xmlText(raw: string): string {
  return raw
    .replace(/&(?:#x([0-9a-fA-F]+)|#(\d+)|(\w+));/g, (whole, hex: string, dec: string, name: string) => {
      if (name) {
        return ENTITIES[name] ?? whole;
      }
      const code = hex ? Number.parseInt(hex, 16) : Number(dec);
      return code <= 0x10ffff ? String.fromCodePoint(code) : "";
    })
    .replace(/_x([0-9a-fA-F]{4})_/g, (_, hex: string) => String.fromCharCode(Number.parseInt(hex, 16)));
}

const ATTRIBUTES = new Map<string, RegExp>();

function attr(tag: string, name: string): string | null {
  let pattern = ATTRIBUTES.get(name);
  if (!pattern) {
    pattern = new RegExp(`\\s${name}\\s*=\\s*(?:"([^"]*)"|'([^']*)')`);
    ATTRIBUTES.set(name, pattern);
  }
  const found = pattern.exec(tag);
  return found ? xmlText(found[1] ?? found[2] ?? "") : null;
}

/** The text runs of a shared string or an inline string, phonetic runs left out. */
function runsText(xml: string): string {
  const visible = xml.replace(/<(?:[\w.-]+:)?rPh\b[\s\S]*?<\/(?:[\w.-]+:)?rPh>/g, "");
  let text = "";
  for (const m of visible.matchAll(/<(?:[\w.-]+:)?t(?:\s[^>]*)?>([\s\S]*?)<\/(?:[\w.-]+:)?t>/g)) {
    text += xmlText(m[1] ?? "");
  }
  return text;
}

/**
 * The longest one row (or shared string) may be as XML. A registry row is a few hundred characters; the
 * cap keeps an element that never ends from being searched again with every chunk (quadratic time).
 */
const ELEMENT_CHARS = 1024 * 1024;

/**
 * The complete `<tag …>…</tag>` (or `<tag …/>`) elements of an XML part as it is inflated, one at a
 * time; text between them is dropped as it goes, so only an unfinished element is ever buffered.
 */
function* elements(chunks: Iterable<Uint8Array>, tag: string): Generator<string> {
  const decoder = new TextDecoder("utf-8");
  const open = new RegExp(`<([\\w.-]+:)?${tag}(?=[\\s>/])`, "g");
  let buffer = "";
  /** An element, finished or waiting for the next chunk, is at most ELEMENT_CHARS long. */
  const sized = (start: number, end: number) => {
    if (end - start > ELEMENT_CHARS) {
      const message = `A ${tag} of the workbook is longer than ${ELEMENT_CHARS} characters of XML.`;
      throw new Invalid("spreadsheet_too_large", message, [{ field: "file", message }]);
    }
    return start;
  };
  const drain = function* (final: boolean): Generator<string> {
    let consumed = 0;
    for (;;) {
      open.lastIndex = consumed;
      const start = open.exec(buffer);
      if (!start) {
        // Keep a possible start of the next element (a `<` near the end), drop the rest.
        const lt = buffer.lastIndexOf("<");
        consumed = lt >= consumed && buffer.length - lt <= tag.length + 40 ? lt : buffer.length;
        break;
      }
      const tagEnd = buffer.indexOf(">", start.index);
      if (tagEnd < 0) {
        consumed = sized(start.index, buffer.length);
        break;
      }
      if (buffer[tagEnd - 1] === "/") {
        yield buffer.slice(start.index, tagEnd + 1);
        consumed = tagEnd + 1;
        continue;
      }
      const close = `</${start[1] ?? ""}${tag}>`;
      const end = buffer.indexOf(close, tagEnd);
      if (end < 0) {
        consumed = sized(start.index, buffer.length);
        break;
      }
      sized(start.index, end + close.length);
      yield buffer.slice(start.index, end + close.length);
      consumed = end + close.length;
    }
    buffer = buffer.slice(consumed);
    open.lastIndex = 0;
    if (final && open.exec(buffer)) {
      // An element the part never finishes: a cut or malformed file.
      throw unreadable();
    }
  };
  for (const chunk of chunks) {
    buffer += decoder.decode(chunk, { stream: true });
    yield* drain(false);
  }
  buffer += decoder.decode();
  yield* drain(true);
}

/** Built-in number formats that show a date or a time (Excel's ids; 27–36 and 50–58 are local dates). */
const DATE_FORMAT_IDS = new Set([
  14, 15, 16, 17, 18, 19, 20, 21, 22, 27, 28, 29, 30, 31, 32, 33, 34, 35, 36, 45, 46, 47, 50, 51, 52, 53, 54,
  55, 56, 57, 58,
]);

/** Does a custom format code show a date or time (as SheetJS decides: a d, m, y, h or s outside quotes)? */
function isDateCode(code: string): boolean {
  const bare = code
    .replace(/"[^"]*"/g, "")
    .replace(/[\\_*]./g, "")
    .replace(/\[(?![hms]+\])[^\]]*\]/gi, "")
    .replace(/General/gi, "")
    .replace(/E[+-]/g, "");
  return /[dmyhsg]|\[[hms]+\]|A\/P|AM\/PM/i.test(bare);
}

/** For each cell style index, whether its number format is a date. */
function dateStyles(xml: string | null): boolean[] {
  if (!xml) {
    return [];
  }
  const codes = new Map<number, string>();
  for (const m of xml.matchAll(/<(?:[\w.-]+:)?numFmt\b[^>]*>/g)) {
    codes.set(Number(attr(m[0], "numFmtId")), attr(m[0], "formatCode") ?? "");
  }
  const xfs = /<(?:[\w.-]+:)?cellXfs\b[\s\S]*?<\/(?:[\w.-]+:)?cellXfs>/.exec(xml)?.[0] ?? "";
  return [...xfs.matchAll(/<(?:[\w.-]+:)?xf\b[^>]*>/g)].map((m) => {
    const id = Number(attr(m[0], "numFmtId") ?? 0);
    const code = codes.get(id);
    return code === undefined ? DATE_FORMAT_IDS.has(id) : isDateCode(code);
  });
}

/** A date serial (days since 1899-12-30, Excel's phantom 1900-02-29 allowed for) as YYYY-MM-DD. */
function serialDay(serial: number, date1904: boolean): string | null {
  const days = date1904 ? serial + 1462 : serial < 60 ? serial + 1 : serial;
  const ms = Math.round(days * 86_400) * 1000 + Date.UTC(1899, 11, 30);
  const date = new Date(ms);
  return Number.isNaN(date.getTime()) ? null : date.toISOString().slice(0, 10);
}

interface Book {
  strings: string[];
  dates: boolean[];
  date1904: boolean;
}

const VALUE = /<(?:[\w.-]+:)?v(?:\s[^>]*)?>([\s\S]*?)<\/(?:[\w.-]+:)?v>/;
const INLINE = /<(?:[\w.-]+:)?is(?:\s[^>]*)?>([\s\S]*?)<\/(?:[\w.-]+:)?is>/;

/** One cell's text by its type (`t`) and style (`s`), as `readWorkbook` would answer it. */
function cellValue(open: string, body: string, book: Book): CellIn {
  const type = attr(open, "t") ?? "n";
  const raw = VALUE.exec(body)?.[1];
  let text: string | null;
  if (type === "inlineStr") {
    text = runsText(INLINE.exec(body)?.[1] ?? "");
  } else if (raw === undefined || type === "e") {
    text = null;
  } else if (type === "s") {
    text = book.strings[Number(raw)] ?? null;
  } else if (type === "b") {
    text = raw.trim() === "1" ? "TRUE" : "FALSE";
  } else if (type === "d") {
    text = xmlText(raw).slice(0, 10);
  } else if (type === "n") {
    const value = Number.parseFloat(raw);
    const date = book.dates[Number(attr(open, "s") ?? 0)] === true;
    text = !Number.isFinite(value) ? xmlText(raw) : date ? serialDay(value, book.date1904) : String(value);
  } else {
    text = xmlText(raw);
  }
  const trimmed = text?.trim() ?? "";
  return trimmed === "" ? null : own(trimmed);
}

/** A, B, … Z, AA …: a reference's column as an index from 0. */
function columnIndex(ref: string): number {
  let index = 0;
  for (const ch of ref) {
    const code = ch.charCodeAt(0);
    if (code < 65 || code > 90) {
      break;
    }
    index = index * 26 + (code - 64);
  }
  return index - 1;
}

const CELL = /<(?:[\w.-]+:)?c(?=[\s>/])([^>]*?)(?:\/>|>([\s\S]*?)<\/(?:[\w.-]+:)?c>)/g;

function parseRow(xml: string, book: Book): CellIn[] {
  const cells: CellIn[] = [];
  let next = 0;
  for (const m of xml.matchAll(CELL)) {
    const open = m[1] ?? "";
    const ref = attr(open, "r");
    const at = ref ? columnIndex(ref.toUpperCase()) : next;
    if (at < 0 || at > 16_383) {
      throw unreadable();
    }
    const value = cellValue(open, m[2] ?? "", book);
    if (value !== null) {
      while (cells.length < at) {
        cells.push(null);
      }
      cells[at] = value;
    }
    next = at + 1;
  }
  return cells;
}

function* sheetRows(archive: XlsxArchive, part: string, book: Book): Generator<RowIn> {
  let line = 0;
  for (const row of elements(archive.chunks(part), "row")) {
    const number = Number(attr(row.slice(0, row.indexOf(">") + 1), "r"));
    line = Number.isInteger(number) && number > line ? number : line + 1;
    const cells = parseRow(row, book);
    if (cells.length > 0) {
      yield { line, cells };
    }
  }
}

/**
 * The sheets of an .xlsx a reader uses (`want`), in workbook order, each read row by row when asked.
 * The ZIP directory, the workbook and its shared strings and styles are read at once: 400
 * `spreadsheet_too_large` past a cap, `spreadsheet_sheet_missing` when a required sheet is absent,
 * `invalid_spreadsheet` for anything that is not a readable .xlsx.
 */
export function openWorkbookRows(bytes: Uint8Array, want?: SheetWant): SheetRows[] {
  const archive = new XlsxArchive(bytes);
  const layout = workbookLayout((name) => archive.part(name), want);
  const strings: string[] = [];
  if (layout.sharedStrings) {
    for (const item of elements(archive.chunks(layout.sharedStrings), "si")) {
      strings.push(own(runsText(item)));
    }
  }
  const pr = /<(?:[\w.-]+:)?workbookPr\b[^>]*>/.exec(layout.book)?.[0] ?? "";
  const book: Book = {
    strings,
    dates: dateStyles(layout.styles ? archive.text(layout.styles) : null),
    date1904: /^(1|true)$/i.test(attr(pr, "date1904") ?? ""),
  };
  const sheets: SheetRows[] = [];
  for (const { name, part } of layout.sheets) {
    if (part && sheetUsed(name, want)) {
      if (!archive.has(part)) {
        throw unreadable();
      }
      sheets.push({ name, rows: () => sheetRows(archive, part, book) });
    }
  }
  return sheets;
}
