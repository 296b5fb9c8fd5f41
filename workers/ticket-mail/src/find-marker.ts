// Finds the marker (separator, header block or attribution) that starts at a line of a reply, and
// how many lines it takes. strip-quotes.ts decides what a marker means for the text around it;
// the patterns are in reply-markers.ts.

import {
  ATTRIBUTION_FORMS,
  ATTRIBUTION_START,
  DATE_FIRST_BARE,
  ENDS_LIKE_ATTRIBUTION,
  FORWARD_SEPARATOR,
  HEADER_ANY,
  HEADER_DATE,
  HEADER_FROM,
  isSubjectLine,
  MAILING_LIST,
  NUMERIC_DATE,
  REPLY_SEPARATOR,
  STRONG_TIME,
  subjectKind,
  UNDERSCORES,
} from "./reply-markers";

// Gmail and others wrap a long attribution over up to three lines.
const ATTRIBUTION_MAX_LINES = 3;
const ATTRIBUTION_MAX_CHARS = 500;
// The rest of a wrapped attribution: the verb alone, or an address's end and the verb.
const VERB_ALONE =
  /^(?:\S*@\S*\s+)?(?:wrote|writes|menulis|schrieb|a écrit|écrit|skrev|escribió|ha scritto|ha escrit|escreveu|schreef|napisał(?:a|\(a\))?|написал(?:а)?|написав|írta)\s*:$/i;
// Every attribution form has a verb or an address; most lines have neither, and skip the forms.
const MAY_BE_ATTRIBUTION =
  /wrote|writes|menulis|schrieb|skrev|écrit|escribió|escrit|scritto|scrisse|escreveu|geschreven|schreef|pisze|napisał|написал|написав|írta|@/i;
// A header block (From/Sent/To/Cc/Subject and wrapped address lists) is never longer than this.
const HEADER_BLOCK_MAX_LINES = 16;

export type Marker = {
  /** Lines the marker takes: an attribution, or a separator with the header block under it. */
  span: number;
  forward: boolean;
  attribution: boolean;
  /** Cuts even above unquoted text: an attribution with an address, or a time and a numeric date. */
  strong: boolean;
  /** Names this ticket's thread: a header block whose subject is a reply or carries [TKT:]. */
  ours: boolean;
  /**
   * A header block without a separator above it needs a date line ("Sent:", "Dikirim:", "Date:" …)
   * to be history: "Dari: Budi <b@x.id>" over "Kepada: Pak RT" may head the sender's own letter.
   */
  certain: boolean;
};

/** The marker starting at line i (given normalised and trimmed), or null. */
export function markerAt(lines: string[], quoted: boolean[], i: number, line: string): Marker | null {
  // Cheap tests first: most lines start with no dash or underscore and have no colon.
  const dash = line.startsWith("-");
  const colon = line.includes(":");
  const forwardSeparator = (dash || line.endsWith(":")) && FORWARD_SEPARATOR.test(line);
  const separator =
    forwardSeparator ||
    (dash && REPLY_SEPARATOR.test(line)) ||
    ((line.startsWith("_") || line.startsWith("=")) &&
      UNDERSCORES.test(line) &&
      underRule(normaliseSpaces(nextNonBlank(lines, i + 1)).trim()));
  if (separator || (colon && HEADER_ANY.test(line) && isHeaderBlock(lines, i))) {
    const block = headerBlock(lines, separator ? i + 1 : i);
    return {
      span: Math.max(1, block.end - i),
      forward: forwardSeparator || block.kind === "forward",
      attribution: false,
      strong: true,
      ours: block.kind === "reply",
      certain: separator || block.dated,
    };
  }
  const attribution = attributionAt(lines, quoted, i, line);
  if (attribution === null) {
    return null;
  }
  return { ...attribution, forward: false, attribution: true, ours: false, certain: true };
}

/** What may stand under a rule of underscores: a header block, or a mailing list's footer. */
function underRule(line: string): boolean {
  return HEADER_ANY.test(line) || (line.length <= 80 && MAILING_LIST.test(line));
}

/**
 * The header block at line `from` (blank lines before it skipped): where it ends, and what its
 * subject says the message is. Address lists wrap onto indented lines or lines with an address.
 */
function headerBlock(
  lines: string[],
  from: number,
): { end: number; kind: ReturnType<typeof subjectKind>; dated: boolean } {
  let i = from;
  while (i < lines.length && (lines[i] ?? "").trim().length === 0) {
    i++;
  }
  let end = from;
  let kind: ReturnType<typeof subjectKind> = "unknown";
  let subjectSeen = false;
  let dated = false;
  for (let previous = ""; i < Math.min(lines.length, from + HEADER_BLOCK_MAX_LINES); i++) {
    const raw = lines[i] ?? "";
    const line = normaliseSpaces(raw).trim();
    if (HEADER_ANY.test(line)) {
      // Only the first subject line decides: "Subject: RE: FW: …" is a reply.
      if (!subjectSeen && isSubjectLine(line)) {
        subjectSeen = true;
        kind = subjectKind(line);
      }
      dated ||= HEADER_DATE.test(line);
      end = i + 1;
    } else if (
      end > from &&
      line.length > 0 &&
      (/^\s/.test(raw) || line.includes("@") || /,$/.test(previous))
    ) {
      end = i + 1;
    } else {
      break;
    }
    previous = line;
  }
  return { end, kind, dated };
}

/** How many lines an attribution starting at line i spans, and whether it is strong; or null. */
function attributionAt(
  lines: string[],
  quoted: boolean[],
  i: number,
  first: string,
): { span: number; strong: boolean } | null {
  // A wrapped attribution is joined only from the start of a paragraph, so that the sender's
  // last line is never read as its first.
  const paragraphStart = i === 0 || (lines[i - 1] ?? "").trim().length === 0 || quoted[i - 1] === true;
  const anchored = ATTRIBUTION_START.test(first);
  let joined = "";
  for (let n = 0; n < ATTRIBUTION_MAX_LINES; n++) {
    const line = n === 0 ? first : normaliseSpaces(lines[i + n] ?? "").trim();
    // Gmail may wrap the address's closing bracket onto a line of its own, which reads as a quote:
    // "… skrev Name <a@b" over ">:".
    const closesAddress = n > 0 && /^>\s*:$/.test(line) && /<[^<>\s]+@[^<>\s]+$/.test(joined);
    if (
      line.length === 0 ||
      (n > 0 && !closesAddress && (quoted[i + n] || !wraps(joined, line, anchored, paragraphStart)))
    ) {
      return null;
    }
    joined = n === 0 ? line : joined.endsWith("<") || closesAddress ? joined + line : `${joined} ${line}`;
    if (joined.length > ATTRIBUTION_MAX_CHARS) {
      return null;
    }
    if (!MAY_BE_ATTRIBUTION.test(joined)) {
      continue;
    }
    if (/\d/.test(joined)) {
      for (const [start, end, timeIsEnough] of ATTRIBUTION_FORMS) {
        if (start.test(joined) && end.test(joined)) {
          const strong =
            joined.includes("@") || (timeIsEnough && STRONG_TIME.test(joined) && NUMERIC_DATE.test(joined));
          return { span: n + 1, strong };
        }
      }
      if (DATE_FIRST_BARE.test(joined) && quotedAfter(lines, quoted, i + n + 1)) {
        return { span: n + 1, strong: false };
      }
    }
    // "Name wrote:" without a date counts only above quoted lines.
    if (ENDS_LIKE_ATTRIBUTION.test(joined) && quotedAfter(lines, quoted, i + n + 1)) {
      return { span: n + 1, strong: false };
    }
  }
  return null;
}

function quotedAfter(lines: string[], quoted: boolean[], from: number): boolean {
  const k = nextNonBlankIndex(lines, from);
  return k >= 0 && quoted[k] === true;
}

/**
 * Whether `next` continues an attribution wrapped after `joined`, so that the sender's own last
 * line is never read as an attribution's first: "Terima kasih Pak." over "On … wrote:" is not a
 * wrap. An attribution with a start word ("On", "Pada", "Am" …) wraps anywhere but after a
 * sentence's end; one without (name first, date first, a bare "Name <a@b>") only from the start of
 * a paragraph and inside its name or address, or before a verb left alone on the next line.
 */
function wraps(joined: string, next: string, anchored: boolean, paragraphStart: boolean): boolean {
  if (/\p{L}[.!?]$/u.test(joined)) {
    return false;
  }
  if (anchored) {
    return true;
  }
  return paragraphStart && (joined.endsWith("<") || next.startsWith("<") || VERB_ALONE.test(next));
}

/**
 * A quoted message's header block: header lines within six, one of them naming the sender
 * ("From:", "Dari:", "Von:", "Da:" …) in any order; three of them, or two when "From" carries an
 * address.
 */
function isHeaderBlock(lines: string[], i: number): boolean {
  let headers = 0;
  let from = false;
  let address = false;
  for (let j = i; j < Math.min(lines.length, i + 6); j++) {
    const line = normaliseSpaces(lines[j] ?? "").trim();
    if (HEADER_ANY.test(line)) {
      headers++;
      if (HEADER_FROM.test(line)) {
        from = true;
        address ||= /\S@\S/.test(line);
      }
    }
  }
  // "Dari: kas RT" over "Tanggal: 20 November" is a sender's own list, not a quoted header.
  return from && (headers >= 3 || (headers >= 2 && address));
}

export function nextNonBlankIndex(lines: string[], from: number): number {
  for (let j = from; j < lines.length; j++) {
    if ((lines[j] ?? "").trim().length > 0) {
      return j;
    }
  }
  return -1;
}

function nextNonBlank(lines: string[], from: number): string {
  const j = nextNonBlankIndex(lines, from);
  return j < 0 ? "" : (lines[j] ?? "");
}

// Gmail puts U+202F before AM/PM and clients use U+00A0 freely; the patterns expect spaces.
export function normaliseSpaces(text: string): string {
  return ODD_SPACE.test(text) ? text.replace(ODD_SPACES, " ") : text;
}
const ODD_SPACE = /[\u00a0\u2007\u202f]/;
const ODD_SPACES = /[\u00a0\u2007\u202f]/g;
