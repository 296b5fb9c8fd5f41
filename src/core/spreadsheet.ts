// The minified "mini" build (XLSX, CSV and a few more formats; ~86 KiB gzip instead of ~250): the
// registry reads and writes .xlsx only.
import { read as readXlsx, utils, write as writeXlsx } from "@e965/xlsx/dist/xlsx.mini.min.js";
import { Invalid } from "./errors";

/**
 * Spreadsheets in and out, module-neutral (ADR: spreadsheets). `.xlsx` through SheetJS Community
 * Edition (`@e965/xlsx`, the npm mirror of SheetJS's own 0.20.x releases): pure synchronous JS that
 * runs in workerd as it is (write-excel-file hands big sheets to a Web Worker, which workerd lacks;
 * exceljs needs Node's fs and streams). CSV is done by hand here. Every cell a module writes is a
 * string or a number; every cell read back is a string (numbers as their digits, so a 16-digit NIK
 * stays whole; date cells as YYYY-MM-DD) or null for an empty cell.
 */

export type CellOut = string | number | null;
export type CellIn = string | null;

export interface SheetOut {
  /** Sheet name (Excel allows at most 31 characters and none of `[]:*?/\`). */
  name: string;
  header: readonly string[];
  rows: readonly (readonly CellOut[])[];
  /** Column widths in characters, optional. */
  widths?: readonly number[];
}

export interface SheetIn {
  name: string;
  /** Every row including the header row; trailing empty cells and rows dropped. */
  rows: CellIn[][];
}

export const XLSX_TYPE = "application/vnd.openxmlformats-officedocument.spreadsheetml.sheet";
export const CSV_TYPE = "text/csv; charset=utf-8";

/** A workbook with one sheet per entry, its first row the header. Strings stay text cells. */
export function writeWorkbook(sheets: readonly SheetOut[]): Uint8Array {
  const book = utils.book_new();
  for (const sheet of sheets) {
    const ws = utils.aoa_to_sheet([sheet.header as CellOut[], ...(sheet.rows as CellOut[][])], {
      dense: true,
    });
    if (sheet.widths) {
      ws["!cols"] = sheet.widths.map((wch) => ({ wch }));
    }
    utils.book_append_sheet(book, ws, sheet.name);
  }
  const out: ArrayBuffer = writeXlsx(book, { type: "array", bookType: "xlsx", compression: true });
  return new Uint8Array(out);
}

function cellText(value: unknown): CellIn {
  if (value === null || value === undefined) {
    return null;
  }
  if (value instanceof Date) {
    return Number.isNaN(value.getTime()) ? null : value.toISOString().slice(0, 10);
  }
  if (typeof value === "boolean") {
    return value ? "TRUE" : "FALSE";
  }
  const text = String(value).trim();
  return text === "" ? null : text;
}

/** Is this a ZIP (and so possibly an .xlsx)? Cheap, before the parser is asked. */
export function looksLikeXlsx(bytes: Uint8Array): boolean {
  return bytes[0] === 0x50 && bytes[1] === 0x4b && bytes[2] === 0x03 && bytes[3] === 0x04;
}

function unreadable(message: string): Invalid {
  return new Invalid("invalid_spreadsheet", message, [{ field: "file", message }]);
}

/**
 * Every sheet of an .xlsx, in workbook order. Anything that is not a readable .xlsx (an .xls, a ZIP of
 * something else, a cut-off file) is 400 `invalid_spreadsheet`, never a 500.
 */
export function readWorkbook(bytes: Uint8Array): SheetIn[] {
  if (!looksLikeXlsx(bytes)) {
    throw unreadable("not an .xlsx file");
  }
  let book: ReturnType<typeof readXlsx>;
  try {
    book = readXlsx(bytes, {
      type: "array",
      dense: true,
      cellDates: true,
      cellFormula: false,
      cellHTML: false,
    });
  } catch {
    throw unreadable("not a readable .xlsx file");
  }
  if (!book.SheetNames.length || !book.Sheets[book.SheetNames[0] ?? ""]) {
    throw unreadable("not a readable .xlsx file");
  }
  return book.SheetNames.map((name) => {
    const ws = book.Sheets[name];
    const data = ws
      ? utils.sheet_to_json<unknown[]>(ws, { header: 1, raw: true, defval: null, blankrows: true })
      : [];
    return { name, rows: dropEmptyTail(data.map((row) => row.map(cellText))) };
  });
}

function dropEmptyTail(rows: CellIn[][]): CellIn[][] {
  const trimmed = rows.map((row) => {
    let end = row.length;
    while (end > 0 && row[end - 1] === null) {
      end--;
    }
    return row.slice(0, end);
  });
  let last = trimmed.length;
  while (last > 0 && trimmed[last - 1]?.length === 0) {
    last--;
  }
  return trimmed.slice(0, last);
}

/**
 * A cell Excel would run as a formula (`=`, `@`, or `+`/`-` not followed by a plain number) gets a
 * leading apostrophe: a CSV opened in Excel must never execute what a resident typed (CSV injection).
 */
function csvCell(value: CellOut): string {
  if (value === null) {
    return "";
  }
  let text = String(value);
  if (/^[=@\t\r]/.test(text) || (/^[+-]/.test(text) && !/^[+-]\d+(\.\d+)?$/.test(text))) {
    text = `'${text}`;
  }
  return /[",\r\n;]/.test(text) ? `"${text.replaceAll('"', '""')}"` : text;
}

/** RFC 4180 CSV, CRLF line ends, with a UTF-8 byte order mark so Excel reads names like "Siti Ärni" right. */
export function toCsv(header: readonly string[], rows: readonly (readonly CellOut[])[]): string {
  const lines = [header.map(csvCell).join(",")];
  for (const row of rows) {
    lines.push(row.map(csvCell).join(","));
  }
  return `\uFEFF${lines.join("\r\n")}\r\n`;
}

/**
 * Parses CSV text: quoted fields with doubled quotes and line breaks, CRLF or LF, a leading BOM. The
 * separator is `,` or `;` (Excel in an Indonesian locale saves with `;`), whichever the first line has
 * more of outside quotes. Empty trailing rows are dropped; empty cells are null.
 */
export function parseCsv(text: string): CellIn[][] {
  const source = text.startsWith("\uFEFF") ? text.slice(1) : text;
  const separator = guessSeparator(source);
  const rows: CellIn[][] = [];
  let row: CellIn[] = [];
  let field = "";
  let quoted = false;
  let wasQuoted = false;
  const endField = () => {
    const value = wasQuoted ? field : field.trim();
    row.push(value === "" ? null : value);
    field = "";
    wasQuoted = false;
  };
  for (let i = 0; i < source.length; i++) {
    const ch = source[i];
    if (quoted) {
      if (ch === '"') {
        if (source[i + 1] === '"') {
          field += '"';
          i++;
        } else {
          quoted = false;
        }
      } else {
        field += ch;
      }
    } else if (ch === '"' && field.trim() === "") {
      quoted = true;
      wasQuoted = true;
      field = "";
    } else if (ch === separator) {
      endField();
    } else if (ch === "\n" || ch === "\r") {
      endField();
      rows.push(row);
      row = [];
      if (ch === "\r" && source[i + 1] === "\n") {
        i++;
      }
    } else {
      field += ch;
    }
  }
  if (quoted) {
    throw unreadable("a quoted CSV field is never closed");
  }
  if (field !== "" || wasQuoted || row.length > 0) {
    endField();
    rows.push(row);
  }
  return dropEmptyTail(rows);
}

function guessSeparator(text: string): "," | ";" {
  let commas = 0;
  let semicolons = 0;
  let quoted = false;
  for (const ch of text) {
    if (ch === '"') {
      quoted = !quoted;
    } else if (!quoted && (ch === "\n" || ch === "\r")) {
      break;
    } else if (!quoted && ch === ",") {
      commas++;
    } else if (!quoted && ch === ";") {
      semicolons++;
    }
  }
  return semicolons > commas ? ";" : ",";
}
