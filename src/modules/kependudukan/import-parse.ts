import { Invalid } from "../../core/errors";
import { type CellIn, parseCsv, readWorkbook } from "../../core/spreadsheet";

/** Reading the upload: its sheets as tables of cells, and the parsers of one cell each. */

export interface RowError {
  sheet: string;
  row: number;
  field: string;
  message: string;
}

export type Table = { sheet: string; header: string[]; rows: CellIn[][] };

export function badFile(message: string, field = "file"): Invalid {
  return new Invalid("invalid_spreadsheet", message, [{ field, message }]);
}

function tableOf(sheet: string, rows: CellIn[][], required: readonly string[]): Table {
  const header = (rows[0] ?? []).map((h) => (h ?? "").trim());
  const missing = required.filter((h) => !header.some((x) => x.toLowerCase() === h.toLowerCase()));
  if (missing.length > 0) {
    throw badFile(`Sheet ${sheet} lacks the column(s): ${missing.join(", ")}.`, sheet);
  }
  return { sheet, header, rows: rows.slice(1) };
}

export function cell(table: Table, row: CellIn[], name: string): string | null {
  const at = table.header.findIndex((h) => h.toLowerCase() === name.toLowerCase());
  return at < 0 ? null : (row[at] ?? null);
}

/** Reads the upload as the export writes it; a CSV is the Anggota sheet alone. */
export function readRegistryFile(bytes: Uint8Array, kind: "xlsx" | "csv"): Table[] {
  if (kind === "csv") {
    let text: string;
    try {
      text = new TextDecoder("utf-8", { fatal: true, ignoreBOM: false }).decode(bytes);
    } catch {
      throw badFile("The CSV is not UTF-8 text.");
    }
    return [tableOf("Anggota", parseCsv(text), MEMBER_REQUIRED)];
  }
  // Only these sheets are inflated and parsed; a workbook without Anggota is refused before parsing.
  const sheets = readWorkbook(bytes, { required: ["Anggota"], optional: ["KK", "Kendaraan", "Unit"] });
  const find = (name: string) => sheets.find((s) => s.name.trim().toLowerCase() === name.toLowerCase());
  const members = find("Anggota");
  if (!members) {
    throw badFile(`The workbook has no sheet "Anggota".`, "Anggota");
  }
  const tables = [tableOf("Anggota", members.rows, MEMBER_REQUIRED)];
  const cards = find("KK");
  if (cards) {
    tables.push(tableOf("KK", cards.rows, ["No. KK"]));
  }
  const cars = find("Kendaraan");
  if (cars) {
    tables.push(tableOf("Kendaraan", cars.rows, ["No. KK", "Plat Nomor", "Jenis"]));
  }
  const unitSheet = find("Unit");
  if (unitSheet) {
    tables.push(tableOf("Unit", unitSheet.rows, ["Blok", "No. Rumah"]));
  }
  return tables;
}

const MEMBER_REQUIRED = ["No. KK", "Blok", "No. Rumah", "NIK", "Nama", "Hubungan", "Jenis Kelamin"] as const;

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
