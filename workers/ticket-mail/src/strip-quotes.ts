// Keeps only what the sender wrote in this reply. Clients write the history in a handful of
// shapes, in every locale (test/corpus/ holds the real-world shapes with the expected text; the
// patterns are in reply-markers.ts, and the marker at a line is found by find-marker.ts):
//   Gmail        "On Sat, Nov 21, 2026 at 10:00 AM Name <a@b> wrote:" (often wrapped) + "> " lines
//                "Pada tanggal Sab, 21 Nov 2026 pukul 10.00 Name <a@b> menulis:", "Am … schrieb …:",
//                "El … escribió:", "Le … a écrit :", "Den … kl. … skrev …:", "2026/11/3 Name <a@b>"
//   Apple Mail   "On 21 Nov 2026, at 10:00, Name <a@b> wrote:" / "Pada 21 Nov 2026, pukul 10.00, … menulis:"
//   Thunderbird  "On 11/21/26 10:00, Name wrote:" / "Pada 21/11/26 10.00, Name menulis:"
//   Zoho, Zimbra "---- On … wrote ----", "- Le … a écrit :"
//   Outlook      "________________________________" then "From:/Sent:/To:/Subject:" in any locale
//                ("Dari:/Dikirim:/Kepada:/Perihal:", "Da:/Data:/A:/Oggetto:", "Von:/Gesendet:" …),
//                or "-----Original Message-----" / "-----Pesan Asli-----"
//   Date first   "20 нояб. 2026 г., в 12:10, … написал:", "2026/11/08 14:26、Name <a@b> のメッセージ:"
//   Phone apps   a sign-off paragraph ("Dikirim dari Yahoo Mail di Android") over unmarked history
//   Lists        "____" over "… mailing list": the list's footer
//   Quotes       "> ", and "| ", Supercite's "C> " or "Name> " when the message uses them under an
//                attribution
// The rules err towards keeping the sender's text (docs/adr/0018-reply-stripping.md):
// - History starts at the first marker below the sender's text, because replies are top-posted.
//   Quoted lines go wherever they are, which keeps the new text of interleaved and bottom-posted
//   replies.
// - A forwarded message ("Forwarded message", "Begin forwarded message:", an Outlook block whose
//   subject is "FW:") is content the sender chose to send: its separator and header lines go,
//   its body stays up to its own history.
// - A marker with nothing of the sender's above it and unquoted text below may sit above what the
//   sender wrote: its lines go and the text stays, unless the block names this ticket's thread
//   ("RE:" or "[TKT:" in its subject) or everything below is quoted.
// - An attribution without an address, or a time and a numeric date, counts only above quoted
//   lines: "Pada 3 November pukul 10.00 Pak Lurah menulis:" above plain text is the sender's own
//   sentence. A header block needs a date line ("Sent:", "Dikirim:") or a separator above it.
// What follows a "--" signature delimiter goes, and so do closing client, phone-app and antivirus
// footers.

import { markerAt, nextNonBlankIndex, normaliseSpaces } from "./find-marker";
import {
  altQuotePrefix,
  DATE_FIRST_BARE,
  ENDS_LIKE_ATTRIBUTION,
  isFooterLine,
  isLinkLine,
  NAME_AFTER_VERB,
  QUOTE_GT,
  SIGNATURE_DELIMITER,
} from "./reply-markers";

// How far above a forward its phone sign-off is looked for (blank lines and a short paragraph).
const FOOTER_WALK_MAX_LINES = 8;

// A reply is a few paragraphs; beyond this it is pasted logs or abuse, and the rest is history.
const MAX_TEXT_CHARS = 1_000_000;

export function stripQuotedText(input: string): string {
  const lines = input.slice(0, MAX_TEXT_CHARS).replace(/\r\n?/g, "\n").split("\n");
  const quoted = markQuoted(lines);
  const { end, drop } = findHistory(lines, quoted);
  const kept: string[] = [];
  for (let i = 0; i < end; i++) {
    if (drop[i] === 0 && !quoted[i]) {
      kept.push(lines[i] ?? "");
    }
  }
  dropFooters(kept);
  return normalise(kept);
}

/**
 * Which lines are quoted: every ">" line, and runs of "|" or initials ("C>", "AB>") lines when
 * the message uses that style under an attribution, or, for initials, when the same initials
 * open two lines or more ("A> B" once is the sender's). Once a style shows, its later runs (an
 * interleaved reply) are quotes too.
 */
function markQuoted(lines: string[]): boolean[] {
  const quoted = lines.map((line) => QUOTE_GT.test(line));
  const styles = new Set<string>();
  // Sparse: most messages have no "|" or initials lines at all.
  const prefixes: (string | null)[] = [];
  const initials = new Map<string, number>();
  for (let k = 0; k < lines.length; k++) {
    const prefix = quoted[k] ? null : altQuotePrefix(lines[k] ?? "");
    if (prefix !== null) {
      prefixes[k] = prefix;
      if (prefix !== "|") {
        initials.set(prefix, (initials.get(prefix) ?? 0) + 1);
      }
    }
  }
  if ([...initials.values()].some((n) => n >= 2)) {
    styles.add("initials");
  }
  if (prefixes.length === 0) {
    return quoted;
  }
  let previous = -1;
  let i = 0;
  while (i < lines.length) {
    const prefix = prefixes[i] ?? null;
    if (prefix === null || quoted[i]) {
      if ((lines[i] ?? "").trim().length > 0) {
        previous = i;
      }
      i++;
      continue;
    }
    const style = prefix === "|" ? "|" : "initials";
    let j = i + 1;
    while (j < lines.length && styleOf(prefixes[j] ?? null) === style) {
      j++;
    }
    if (
      styles.has(style) ||
      (previous >= 0 && endsAttribution(normaliseSpaces(lines[previous] ?? "").trim()))
    ) {
      styles.add(style);
      quoted.fill(true, i, j);
    }
    previous = j - 1;
    i = j;
  }
  return quoted;
}

function styleOf(prefix: string | null): string | null {
  return prefix === null ? null : prefix === "|" ? "|" : "initials";
}

/** The last line of an attribution, as a quote block's opener. */
function endsAttribution(line: string): boolean {
  return (
    ENDS_LIKE_ATTRIBUTION.test(line) ||
    NAME_AFTER_VERB.test(line) ||
    /@[^\s<>]+>?\s*:$/.test(line) ||
    /\swrote\s*-+$/i.test(line) ||
    DATE_FIRST_BARE.test(line)
  );
}

/** Drops client and antivirus footers closing the reply ("Sent from my iPhone", Avast). */
function dropFooters(kept: string[]): void {
  const at = (k: number) => normaliseSpaces(kept[k] ?? "").trim();
  for (;;) {
    dropTrailingBlank(kept);
    // Footer lines closing the last paragraph, with the link a footer line carries; a sentence
    // after a footer line is the sender's, so the walk starts from the end and stops at a blank.
    let cut = kept.length;
    while (cut > 0) {
      const line = at(cut - 1);
      if (isFooterLine(line)) {
        cut--;
      } else if (isLinkLine(line) && cut >= 2 && isFooterLine(at(cut - 2))) {
        cut -= 2;
      } else {
        break;
      }
    }
    if (cut === kept.length) {
      return;
    }
    kept.splice(cut);
  }
}

/**
 * Where the history starts, and marker lines to drop above it. An attribution followed by
 * quoted lines and then new text (an interleaved reply, as Thunderbird users write) is dropped
 * alone, not cut at; one followed by unquoted text starts history that the client did not mark,
 * unless nothing of the sender's stands above it.
 */
function findHistory(lines: string[], quoted: boolean[]): { end: number; drop: Uint8Array } {
  const signature = lines.findIndex((line) => SIGNATURE_DELIMITER.test(line.trim()));
  const limit = signature < 0 ? lines.length : signature;
  // 1 for a marker line that goes although the text around it stays.
  const drop = new Uint8Array(lines.length);
  // The last line of new text before the limit: what follows an attribution is all quoted when
  // this lies above it. Computed once, so many attributions cost no rescans.
  let lastUnquoted = -1;
  for (let j = limit - 1; j >= 0; j--) {
    if ((lines[j] ?? "").trim().length > 0 && !quoted[j]) {
      lastUnquoted = j;
      break;
    }
  }
  let senderAbove = false;
  for (let i = 0; i < limit; i++) {
    if (quoted[i]) {
      continue;
    }
    const line = normaliseSpaces(lines[i] ?? "").trim();
    if (line.length === 0) {
      continue;
    }
    const marker = markerAt(lines, quoted, i, line);
    if (marker === null) {
      if (senderAbove && isFooterLine(line) && footerOverHistory(lines, quoted, i, limit)) {
        // A phone app's sign-off closes what the sender wrote; unmarked text under it is the
        // message replied to (Yahoo and Samsung apps quote without ">").
        return { end: i, drop };
      }
      senderAbove = true;
      continue;
    }
    const after = i + marker.span;
    const next = nextNonBlankIndex(lines, after);
    const quotedBelow = next >= 0 && quoted[next] === true;
    const dropMarker = marker.forward || (marker.attribution && quotedBelow && lastUnquoted >= after);
    if (!marker.certain && !quotedBelow && !marker.ours) {
      // An undated header block over plain text may head the sender's own letter: kept whole.
      senderAbove = true;
      i = after - 1;
      continue;
    }
    if (!dropMarker) {
      if (marker.attribution && !marker.strong && !quotedBelow) {
        // A date and a verb over plain text: the sender's own sentence.
        senderAbove = true;
        continue;
      }
      if (senderAbove || quotedBelow || next < 0 || marker.ours) {
        return { end: i, drop };
      }
    }
    // A forward's header, an interleaved attribution, or a marker over unquoted text with
    // nothing of the sender's above it: the marker goes, the text under it stays.
    for (let k = i; k < Math.min(after, limit); k++) {
      drop[k] = 1;
    }
    if (marker.forward) {
      // The phone's sign-off above a forward no longer closes the kept text, so it goes here.
      dropFooterParagraphsAbove(lines, i, drop);
    }
    i = after - 1;
  }
  return { end: limit, drop };
}

/**
 * Whether line i starts a paragraph of footer lines alone ("Sent from my iPhone", "Dikirim dari
 * Yahoo Mail di Android") with unquoted text under it that is no marker of its own (a forward or
 * header block under a sign-off is read by its own rules).
 */
function footerOverHistory(lines: string[], quoted: boolean[], i: number, limit: number): boolean {
  if (i > 0 && (lines[i - 1] ?? "").trim().length > 0) {
    return false;
  }
  let end = i;
  while (end < limit && (lines[end] ?? "").trim().length > 0) {
    const line = normaliseSpaces(lines[end] ?? "").trim();
    if (!isFooterLine(line) && !isLinkLine(line)) {
      return false;
    }
    end++;
  }
  const next = nextNonBlankIndex(lines, end);
  if (next < 0 || next >= limit || quoted[next]) {
    return false;
  }
  const text = normaliseSpaces(lines[next] ?? "").trim();
  const marker = markerAt(lines, quoted, next, text);
  return marker === null || (marker.attribution && !marker.forward);
}

/** Drops the paragraphs of footer lines alone ("Sent from my iPhone") that end just above line i. */
function dropFooterParagraphsAbove(lines: string[], i: number, drop: Uint8Array): void {
  // Bounded walks: a footer paragraph is short, and many forwards in a row must stay linear.
  let end = i;
  for (let paragraphs = 0; paragraphs < 3; paragraphs++) {
    const floor = Math.max(0, end - FOOTER_WALK_MAX_LINES);
    while (end > floor && (lines[end - 1] ?? "").trim().length === 0 && drop[end - 1] === 0) {
      end--;
    }
    let start = end;
    while (start > floor && (lines[start - 1] ?? "").trim().length > 0 && drop[start - 1] === 0) {
      start--;
    }
    if (start === floor && floor > 0 && (lines[start - 1] ?? "").trim().length > 0) {
      return;
    }
    const paragraph = lines.slice(start, end).map((line) => normaliseSpaces(line).trim());
    const footer =
      paragraph.length > 0 &&
      isFooterLine(paragraph[0] ?? "") &&
      paragraph.every((line) => isFooterLine(line) || isLinkLine(line));
    if (!footer) {
      return;
    }
    for (let k = start; k < end; k++) {
      drop[k] = 1;
    }
    end = start;
  }
}

function dropTrailingBlank(lines: string[]): void {
  while (lines.length > 0 && (lines[lines.length - 1] ?? "").trim().length === 0) {
    lines.pop();
  }
}

function normalise(lines: string[]): string {
  return lines
    .map(trimEndSpaces)
    .join("\n")
    .replace(/\n{3,}/g, "\n\n")
    .trim();
}

/** Trailing spaces and tabs off; a regex would rescan a long run of spaces from each start. */
export function trimEndSpaces(line: string): string {
  let end = line.length;
  while (end > 0 && (line[end - 1] === " " || line[end - 1] === "\t")) {
    end--;
  }
  return line.slice(0, end);
}
