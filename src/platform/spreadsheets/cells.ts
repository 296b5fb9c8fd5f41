import { jakartaDay } from "../../core/time";

/** A cell a module writes: text or a number (empty is null). */
export type CellOut = string | number | null;
/** A cell read back: always text (numbers as their digits), or null for an empty cell. */
export type CellIn = string | null;

/**
 * Formula injection (CSV injection): a cell Excel or LibreOffice would run as a formula. Checked on the
 * text as a spreadsheet sees it once it has dropped what leads: the probe of issue 31 passed "\t=…"
 * (and " =…", "\n+…") because the old check looked at the first character before that trimming. So:
 * leading whitespace and control characters are skipped first, then `=`, `@`, or `+`/`-` not followed
 * by a plain number (a phone number "+62812…", an amount "-5000" stay as they are) marks a formula;
 * so does a cell that itself starts with a tab, CR or LF, which some importers treat as a separator.
 * Every export writer asks this one function: CSV puts an apostrophe in front, .xlsx keeps the text and
 * gives the cell the Text format with a quote prefix, so editing it in Excel never makes it a formula.
 */
// biome-ignore lint/suspicious/noControlCharactersInRegex: leading controls are what a spreadsheet drops
const LEADING_BLANKS = /^[\s\u0000-\u001F\u007F\u200B-\u200D\u2060\uFEFF]+/;
const PLAIN_SIGNED_NUMBER = /^[+-]\d+(\.\d+)?$/;

export function looksLikeFormula(text: string): boolean {
  if (/^[\t\r\n]/.test(text)) {
    return true;
  }
  const lead = text.replace(LEADING_BLANKS, "");
  if (/^[=@]/.test(lead)) {
    return true;
  }
  return /^[+-]/.test(lead) && !PLAIN_SIGNED_NUMBER.test(lead);
}

/**
 * What a column holds, declared with the column (never guessed from its values), so one declaration
 * drives every writer (ADR 0022, "Cell kinds"):
 * - `identity`: an identity number (NIK, KK number, a phone number): digits that are not a quantity.
 *   `.xlsx` writes it as a text cell (a number given is written as its digits); CSV puts a tab in front
 *   of it inside quotes (`IDENTITY_MARK`), which Excel keeps as text, so it is never 3.2010109E+15 and
 *   "0812…" keeps its 0.
 * - `date`: a calendar day, written `YYYY-MM-DD` (ISO 8601, which spreadsheet programs read as a date in
 *   every locale; an instant is written as its Jakarta day), as text in `.xlsx`.
 * - `general` (a bare header string): the cell as the module gives it.
 */
export type CellKind = "general" | "identity" | "date";

/** A column of a sheet: its header, and what its cells hold when that is not `general`. */
export type Column = string | { readonly header: string; readonly kind: CellKind };

export function headerOf(column: Column): string {
  return typeof column === "string" ? column : column.header;
}

export function kindOf(column: Column | undefined): CellKind {
  return column === undefined || typeof column === "string" ? "general" : column.kind;
}

/**
 * The CSV text marker of an identity cell: a leading tab inside the quotes. Only a value that is a plain
 * identity number gets it, so the tab never stands before a formula sign: what follows is digits, with
 * at most a leading `+` and spaces, dashes or dots between them, which no program runs.
 */
export const IDENTITY_MARK = "\t";
const PLAIN_IDENTITY = /^\+?\d[\d .-]*$/;

/** Is `text` an identity number that can carry the text marker (and so lose it again on the way in)? */
export function isPlainIdentity(text: string): boolean {
  return PLAIN_IDENTITY.test(text) && /\d$/.test(text);
}

const ISO_DAY = /^\d{4}-\d{2}-\d{2}$/;
const ISO_INSTANT = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}/;

/**
 * A cell as its column's kind writes it, for every writer: an identity number as its digits (a string,
 * never a float), a date as `YYYY-MM-DD` (an ISO instant as its day in Jakarta). Anything else, and
 * any value that is not what its kind expects, is left as it is: the writers' formula defence sees it.
 */
export function cellByKind<T extends string | number | null>(kind: CellKind, value: T): T | string {
  if (value === null || kind === "general") {
    return value;
  }
  if (kind === "identity") {
    return typeof value === "number" && Number.isSafeInteger(value) ? String(value) : value;
  }
  if (typeof value === "string" && !ISO_DAY.test(value) && ISO_INSTANT.test(value)) {
    const at = new Date(value);
    return Number.isNaN(at.getTime()) ? value : jakartaDay(at);
  }
  return value;
}
