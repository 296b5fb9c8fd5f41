import { Invalid } from "../../core/errors";
import {
  type CellIn,
  looksLikeXlsx,
  openWorkbookRows,
  parseCsv,
  type RowIn,
} from "../../platform/spreadsheets";

/** Reading the upload: its sheets as tables of cells, and the parsers of one cell each. */

export interface RowError {
  sheet: string;
  row: number;
  field: string;
  message: string;
}

/** A sheet of the upload: its header (on row `headerLine`) and its other non-empty rows, read once. */
export interface Table {
  sheet: string;
  header: string[];
  headerLine: number;
  /** Lower-cased header name → column index (the first column of that name). */
  columns: Map<string, number>;
  rows: Iterable<RowIn>;
}

export function badFile(message: string, field = "file"): Invalid {
  return new Invalid("invalid_spreadsheet", message, [{ field, message }]);
}

/** The sheet's first non-empty row is its header; the rest are read as the check asks for them. */
function tableOf(sheet: string, rows: Iterator<RowIn>, required: readonly string[]): Table {
  const first = rows.next();
  const header = first.done ? [] : first.value.cells.map((h) => (h ?? "").trim());
  const columns = new Map<string, number>();
  header.forEach((h, i) => {
    if (!columns.has(h.toLowerCase())) {
      columns.set(h.toLowerCase(), i);
    }
  });
  const missing = required.filter((h) => !columns.has(h.toLowerCase()));
  if (missing.length > 0) {
    throw badFile(`Sheet ${sheet} lacks the column(s): ${missing.join(", ")}.`, sheet);
  }
  const rest: Iterable<RowIn> = { [Symbol.iterator]: () => rows };
  return { sheet, header, headerLine: first.done ? 1 : first.value.line, columns, rows: rest };
}

export function cell(table: Table, row: CellIn[], name: string): string | null {
  const at = table.columns.get(name.toLowerCase());
  return at === undefined ? null : (row[at] ?? null);
}

/** CSV rows numbered as lines of the file (the header is line 1), empty ones left out. */
function* csvRows(rows: CellIn[][]): Generator<RowIn> {
  for (const [i, cells] of rows.entries()) {
    if (cells.some((c) => c !== null)) {
      yield { line: i + 1, cells };
    }
  }
}

/**
 * Reads the upload as the export writes it; a CSV is the Anggota sheet alone. A workbook is read row by
 * row as the check asks (platform/spreadsheets/rows.ts): only its header rows are read here.
 */
export function readRegistryFile(bytes: Uint8Array, kind: "xlsx" | "csv"): Table[] {
  if (kind === "csv") {
    let text: string;
    try {
      text = new TextDecoder("utf-8", { fatal: true, ignoreBOM: false }).decode(bytes);
    } catch {
      throw badFile("The CSV is not UTF-8 text.");
    }
    return [tableOf("Anggota", csvRows(parseCsv(text)), MEMBER_REQUIRED)];
  }
  if (!looksLikeXlsx(bytes)) {
    throw badFile("not an .xlsx file");
  }
  // Only these sheets are ever inflated; a workbook without Anggota is refused before any row is read.
  const sheets = openWorkbookRows(bytes, { required: ["Anggota"], optional: ["KK", "Kendaraan", "Unit"] });
  const find = (name: string) => sheets.find((s) => s.name.trim().toLowerCase() === name.toLowerCase());
  const tables: Table[] = [];
  for (const [name, required] of SHEETS) {
    const sheet = find(name);
    if (sheet) {
      tables.push(tableOf(name, sheet.rows(), required));
    } else if (name === "Anggota") {
      throw badFile(`The workbook has no sheet "Anggota".`, "Anggota");
    }
  }
  return tables;
}

const MEMBER_REQUIRED = ["No. KK", "Blok", "No. Rumah", "NIK", "Nama", "Hubungan", "Jenis Kelamin"] as const;
const SHEETS: [string, readonly string[]][] = [
  ["Anggota", MEMBER_REQUIRED],
  ["KK", ["No. KK"]],
  ["Kendaraan", ["No. KK", "Plat Nomor", "Jenis"]],
  ["Unit", ["Blok", "No. Rumah"]],
];

const code = (v: string) =>
  v
    .trim()
    .toLowerCase()
    .replace(/[\s/-]+/g, "_");

export type Parsed<T> = { value: T | null } | { error: string };

export function pick<T extends string>(
  value: string | null,
  allowed: readonly T[],
  aliases: Record<string, T> = {},
): Parsed<T> {
  if (value === null) {
    return { value: null };
  }
  const key = code(value);
  const found = allowed.find((a) => a.toLowerCase() === key) ?? aliases[key];
  return found ? { value: found } : { error: `one of ${allowed.join(", ")}` };
}

/** YYYY-MM-DD, or DD-MM-YYYY / DD/MM/YYYY as typed in Indonesia. */
export function day(value: string | null): Parsed<string> {
  if (value === null) {
    return { value: null };
  }
  const iso = /^(\d{4})-(\d{2})-(\d{2})$/.exec(value);
  const local = /^(\d{1,2})[-/.](\d{1,2})[-/.](\d{4})$/.exec(value);
  const [y, m, d] = iso ? [iso[1], iso[2], iso[3]] : local ? [local[3], local[2], local[1]] : [];
  if (!y || !m || !d) {
    return { error: "a date (YYYY-MM-DD or DD-MM-YYYY)" };
  }
  const text = `${y}-${m.padStart(2, "0")}-${d.padStart(2, "0")}`;
  const parsed = new Date(`${text}T00:00:00Z`);
  return Number.isNaN(parsed.getTime()) || parsed.toISOString().slice(0, 10) !== text
    ? { error: "not a calendar date" }
    : { value: text };
}

export function text(value: string | null, max: number): Parsed<string> {
  if (value === null) {
    return { value: null };
  }
  // biome-ignore lint/suspicious/noControlCharactersInRegex: refusing control characters is the point.
  if (value.length > max || /[\u0000-\u001f\u007f-\u009f\u202a-\u202e\u2066-\u2069]/.test(value)) {
    return { error: `text of at most ${max} characters, without control characters` };
  }
  return { value };
}
