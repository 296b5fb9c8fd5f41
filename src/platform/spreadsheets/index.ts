// The minified "mini" build (XLSX, CSV and a few more formats; ~86 KiB gzip instead of ~250): the
// registry reads and writes .xlsx only.
import { read as readXlsx, utils, write as writeXlsx } from "@e965/xlsx/dist/xlsx.mini.min.js";
import { Invalid } from "../../core/errors";
import {
  type CellIn,
  type CellOut,
  type Column,
  cellByKind,
  headerOf,
  kindOf,
  looksLikeFormula,
} from "./cells";
import { dropEmptyTail } from "./csv";
import { type SheetWant, workbookParts } from "./xlsx-parts";

export { type CellKind, type Column, headerOf } from "./cells";
export { parseCsv, streamCsv, toCsv } from "./csv";
export { openWorkbookRows, type RowIn, type SheetRows } from "./rows";
export { type RowPages, type SheetStream, streamWorkbook } from "./stream";
export { type SheetWant, XLSX_LIMITS } from "./xlsx-parts";

/**
 * Spreadsheets in and out, module-neutral (ADR: spreadsheets). `.xlsx` through SheetJS Community
 * Edition (`@e965/xlsx`, the npm mirror of SheetJS's own 0.20.x releases): pure synchronous JS that
 * runs in workerd as it is (write-excel-file hands big sheets to a Web Worker, which workerd lacks;
 * exceljs needs Node's fs and streams). CSV is done by hand here. Every cell a module writes is a
 * string or a number; every cell read back is a string (numbers as their digits, so a 16-digit NIK
 * stays whole; date cells as YYYY-MM-DD) or null for an empty cell.
 */

export type { CellIn, CellOut } from "./cells";

export interface SheetOut {
  /** Sheet name (Excel allows at most 31 characters and none of `[]:*?/\`). */
  name: string;
  /** The columns: a header, or a header and its cells' kind (an identity number, a date). */
  header: readonly Column[];
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
    const kinds = sheet.header.map(kindOf);
    const rows = sheet.rows.map((row) => row.map((value, i) => cellByKind(kinds[i] ?? "general", value)));
    const ws = utils.aoa_to_sheet([sheet.header.map(headerOf), ...rows], { dense: true });
    textFormatFormulaLike(ws);
    if (sheet.widths) {
      ws["!cols"] = sheet.widths.map((wch) => ({ wch }));
    }
    utils.book_append_sheet(book, ws, sheet.name);
  }
  const out: ArrayBuffer = writeXlsx(book, { type: "array", bookType: "xlsx", compression: true });
  return new Uint8Array(out);
}

/** A string that looks like a formula (spreadsheet-cells.ts) gets the Text format: editing keeps it text. */
function textFormatFormulaLike(ws: ReturnType<typeof utils.aoa_to_sheet>): void {
  for (const row of ws["!data"] ?? []) {
    for (const cell of row ?? []) {
      if (cell?.t === "s" && typeof cell.v === "string" && looksLikeFormula(cell.v)) {
        cell.z = "@";
      }
    }
  }
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
 * The sheets of an .xlsx a reader uses (`want`; every sheet without it), in workbook order. The ZIP's
 * directory is checked against XLSX_LIMITS and only the parts of those sheets are inflated and parsed
 * (xlsxParts.ts): 400 `spreadsheet_too_large` past a cap, `spreadsheet_sheet_missing` when a required
 * sheet is absent, both before any parsing. Anything else that is not a readable .xlsx (an .xls, a ZIP
 * of something else, a cut-off file) is 400 `invalid_spreadsheet`, never a 500.
 */
export function readWorkbook(bytes: Uint8Array, want?: SheetWant): SheetIn[] {
  if (!looksLikeXlsx(bytes)) {
    throw unreadable("not an .xlsx file");
  }
  const parts = workbookParts(bytes, want);
  let book: ReturnType<typeof readXlsx>;
  try {
    book = readXlsx(parts.zip, {
      type: "array",
      dense: true,
      cellDates: true,
      cellFormula: false,
      cellHTML: false,
      sheets: parts.sheets,
    });
  } catch {
    throw unreadable("not a readable .xlsx file");
  }
  const names = book.SheetNames.filter((name) => parts.sheets.includes(name));
  if (!names.length || !book.Sheets[names[0] ?? ""]) {
    throw unreadable("not a readable .xlsx file");
  }
  return names.map((name) => {
    const ws = book.Sheets[name];
    const data = ws
      ? utils.sheet_to_json<unknown[]>(ws, { header: 1, raw: true, defval: null, blankrows: true })
      : [];
    return { name, rows: dropEmptyTail(data.map((row) => row.map(cellText))) };
  });
}
