import { Invalid } from "../../core/errors";

/**
 * The letter number format: placeholders, formatting and reading a number back. Pure text work, so
 * both the settings (which check a new format) and the numbering (which fills one in) use it.
 */

/** The usual RT register number: 007/SKD/RT003.RW005/XI/2026, restarting at 001 each year. */
export const DEFAULT_FORMAT = "{seq:3}/{code}/RT{rt}.RW{rw}/{monthRoman}/{year}";
/** An RW has no RT number: 007/SKD/RW005/XI/2026. */
export const DEFAULT_RW_FORMAT = "{seq:3}/{code}/RW{rw}/{monthRoman}/{year}";

export const defaultFormat = (type: "RT" | "RW") => (type === "RW" ? DEFAULT_RW_FORMAT : DEFAULT_FORMAT);
const TOKEN_RE = /\{([A-Za-z]+)(?::(\d))?\}/g;
const TOKENS = new Set(["seq", "code", "rt", "rw", "month", "monthRoman", "year"]);
const ROMAN = ["I", "II", "III", "IV", "V", "VI", "VII", "VIII", "IX", "X", "XI", "XII"];

/**
 * A format must carry the sequence exactly once and the year: without the year, restarting the
 * sequence each January would reissue last year's numbers.
 */
export function checkFormat(format: string): void {
  const tokens = [...format.matchAll(TOKEN_RE)].map((m) => m[1] ?? "");
  const unknown = tokens.filter((t) => !TOKENS.has(t));
  const problems: string[] = [];
  if (unknown.length) {
    problems.push(`unknown placeholder {${unknown[0]}}`);
  }
  if (tokens.filter((t) => t === "seq").length !== 1) {
    problems.push("needs {seq} (or {seq:3}) exactly once");
  }
  if (!tokens.includes("year")) {
    problems.push("needs {year}");
  }
  if (problems.length) {
    throw new Invalid(
      "invalid_number_format",
      `Invalid number format: ${problems.join("; ")}.`,
      problems.map((message) => ({ field: "numberFormat", message })),
    );
  }
}

/** The settings a format prints: a number is never made with a placeholder for an unset one. */
export function formatNeeds(format: string): ("rt" | "rw")[] {
  const tokens = new Set([...format.matchAll(TOKEN_RE)].map((m) => m[1]));
  return (["rt", "rw"] as const).filter((t) => tokens.has(t));
}

function pad3(v: string | null): string {
  if (!v) {
    // numbering checks the settings first (letter_settings_incomplete); reaching here is a bug.
    throw new Error("letter number format needs a setting that is unset");
  }
  return v.padStart(3, "0");
}

interface NumberParts {
  seq: number;
  code: string;
  rt: string | null;
  rw: string | null;
  /** YYYY-MM-DD, the letter's date. */
  day: string;
}

export function formatNumber(format: string, parts: NumberParts): string {
  const month = Number(parts.day.slice(5, 7));
  return format.replace(TOKEN_RE, (_, token: string, width?: string) => {
    switch (token) {
      case "seq":
        return String(parts.seq).padStart(Number(width ?? 1), "0");
      case "code":
        return parts.code;
      case "rt":
        return pad3(parts.rt);
      case "rw":
        return pad3(parts.rw);
      case "month":
        return String(month).padStart(2, "0");
      case "monthRoman":
        return ROMAN[month - 1] ?? "";
      case "year":
        return parts.day.slice(0, 4);
      default:
        return "";
    }
  });
}

const escapeRe = (text: string) => text.replace(/[.*+?^${}()|[\]\\]/g, "\\$&");

/**
 * The sequence a number carries, when it follows the tenant's format for that year; null for a
 * number typed by hand in another shape (which still must be unique, but does not move the counter).
 */
export function sequenceOf(
  format: string,
  nomor: string,
  year: number,
  rt: string | null,
  rw: string | null,
) {
  if (formatNeeds(format).some((t) => !(t === "rt" ? rt : rw))) {
    // Without the setting no number can follow the format: the counter does not move.
    return null;
  }
  let pattern = "";
  let last = 0;
  for (const match of format.matchAll(TOKEN_RE)) {
    pattern += escapeRe(format.slice(last, match.index));
    last = match.index + match[0].length;
    const token = match[1];
    pattern +=
      token === "seq"
        ? "(\\d+)"
        : token === "year"
          ? String(year)
          : token === "rt"
            ? escapeRe(pad3(rt))
            : token === "rw"
              ? escapeRe(pad3(rw))
              : token === "monthRoman"
                ? "[IVX]+"
                : token === "month"
                  ? "\\d{2}"
                  : "[A-Za-z0-9-]+";
  }
  pattern += escapeRe(format.slice(last));
  const found = new RegExp(`^${pattern}$`).exec(nomor);
  return found?.[1] ? Number(found[1]) : null;
}
