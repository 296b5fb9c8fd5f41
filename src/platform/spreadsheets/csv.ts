import { Invalid } from "../../core/errors";
import type { CellIn, CellOut } from "./cells";
import {
  type CellKind,
  type Column,
  cellByKind,
  headerOf,
  IDENTITY_MARK,
  isPlainIdentity,
  kindOf,
  looksLikeFormula,
} from "./cells";
import { byteStream, type RowPages } from "./stream";

/** CSV in and out, by hand (ADR 0022): the registry's Anggota sheet alone, and the exports' streams. */

function unreadable(message: string): Invalid {
  return new Invalid("invalid_spreadsheet", message, [{ field: "file", message }]);
}

/** Trailing empty cells of each row, and trailing empty rows, dropped. */
export function dropEmptyTail(rows: CellIn[][]): CellIn[][] {
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
 * One CSV field. A cell Excel would run as a formula (spreadsheet-cells.ts) gets a leading apostrophe: a
 * CSV opened in Excel must never execute what a resident typed (CSV injection). A plain identity number
 * in an `identity` column gets the text marker instead (a tab inside quotes, `IDENTITY_MARK`), so a
 * spreadsheet program keeps it as text; a date column's cell is its `YYYY-MM-DD`.
 */
function csvCell(value: CellOut, kind: CellKind): string {
  const shaped = cellByKind(kind, value);
  if (shaped === null) {
    return "";
  }
  let text = String(shaped);
  if (kind === "identity" && typeof shaped === "string" && isPlainIdentity(text)) {
    return `"${IDENTITY_MARK}${text}"`;
  }
  if (typeof shaped === "string" && looksLikeFormula(text)) {
    text = `'${text}`;
  }
  return /[",\r\n;]/.test(text) ? `"${text.replaceAll('"', '""')}"` : text;
}

function csvLines(rows: readonly (readonly CellOut[])[], kinds: readonly CellKind[]): string {
  let text = "";
  for (const row of rows) {
    text += `${row.map((value, i) => csvCell(value, kinds[i] ?? "general")).join(",")}\r\n`;
  }
  return text;
}

/** The header line: headers are written as text, never marked. */
function headerLine(columns: readonly Column[]): string {
  return csvLines([columns.map(headerOf)], []);
}

/**
 * RFC 4180 CSV, CRLF line ends, with a UTF-8 byte order mark so Excel reads names like "Siti Ärni" right.
 * Each column's declared kind (spreadsheet-cells.ts) shapes its cells.
 */
export function toCsv(columns: readonly Column[], rows: readonly (readonly CellOut[])[]): string {
  return `\uFEFF${headerLine(columns)}${csvLines(rows, columns.map(kindOf))}`;
}

/** `toCsv`, streamed: the BOM and header at once, then one chunk per page as it is read. */
export function streamCsv(columns: readonly Column[], pages: RowPages): ReadableStream<Uint8Array> {
  const kinds = columns.map(kindOf);
  return byteStream(
    (async function* () {
      const encoder = new TextEncoder();
      yield encoder.encode(`\uFEFF${headerLine(columns)}`);
      for await (const page of pages) {
        yield encoder.encode(csvLines(page, kinds));
      }
    })(),
  );
}

/**
 * Parses CSV text: quoted fields with doubled quotes and line breaks, CRLF or LF, a leading BOM. The
 * separator is `,` or `;` (Excel in an Indonesian locale saves with `;`), whichever the first line has
 * more of outside quotes. Empty trailing rows are dropped; empty cells are null. A quoted identity number
 * with the export's text marker (a leading tab) reads back without it, so the export imports as written.
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
    const value = wasQuoted ? unmarked(field) : field.trim();
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

/** A quoted field without the identity text marker `csvCell` puts in front of a plain identity number. */
function unmarked(field: string): string {
  return field.startsWith(IDENTITY_MARK) && isPlainIdentity(field.slice(IDENTITY_MARK.length))
    ? field.slice(IDENTITY_MARK.length)
    : field;
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
