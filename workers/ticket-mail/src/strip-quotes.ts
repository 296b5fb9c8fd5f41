// Keeps only what the sender wrote in this reply. Clients write the history in a handful of
// shapes (English and Indonesian locales shown):
//   Gmail        "On Sat, Nov 21, 2026 at 10:00 AM Name <a@b> wrote:" (often wrapped) + "> " lines
//                "Pada tanggal Sab, 21 Nov 2026 pukul 10.00 Name <a@b> menulis:"
//   Apple Mail   "On 21 Nov 2026, at 10:00, Name <a@b> wrote:" / "Pada 21 Nov 2026, pukul 10.00, … menulis:"
//   Thunderbird  "On 11/21/26 10:00, Name wrote:" / "Pada 21/11/26 10.00, Name menulis:"
//   Outlook      "________________________________" then "From:/Sent:/To:/Subject:"
//                ("Dari:/Dikirim:/Kepada:/Subjek:"), or "-----Original Message-----"
// Everything from the first such marker on is history, because replies are top-posted; quoted
// "> " lines are dropped wherever they are, which keeps the new text of interleaved replies.

const SEPARATOR =
  /^-{2,}\s*(?:original message|forwarded message|pesan asli|pesan yang diteruskan|pesan terusan|pesan diteruskan)\s*-{2,}$/i;
const UNDERSCORES = /^_{8,}$/;
const HEADER_FROM = /^\*?(?:from|dari)\s*:\*?\s*\S/i;
const HEADER_NEXT = /^\*?(?:sent|date|to|cc|subject|dikirim|tanggal|kepada|subjek|perihal)\s*:/i;
const ATTRIBUTION = /^(?:on|pada)\s.*\d.*\s(?:wrote|menulis)\s*:$/i;
const ENDS_LIKE_ATTRIBUTION = /\s(?:wrote|menulis)\s*:$/i;
const QUOTED = /^\s*>/;
const SIGNATURE_DELIMITER = /^--\s?$/;
// Only as the last line, since Indonesian "dikirim dari …" is also an ordinary phrase.
const DEVICE_SIGNATURE =
  /^(?:sent from my \S|sent from (?:outlook|mail|yahoo)|sent with |get outlook for (?:ios|android)|dikirim dari (?:iphone|ipad|ponsel|perangkat|samsung|yahoo|outlook|mail)|dapatkan outlook untuk (?:ios|android))/i;
// Gmail and others wrap a long attribution over up to three lines.
const ATTRIBUTION_MAX_LINES = 3;

// A reply is a few paragraphs; beyond this it is pasted logs or abuse, and the rest is history.
const MAX_TEXT_CHARS = 1_000_000;

export function stripQuotedText(input: string): string {
  const lines = input.slice(0, MAX_TEXT_CHARS).replace(/\r\n?/g, "\n").split("\n");
  const { end, drop } = findHistory(lines);
  const kept = lines.slice(0, end).filter((line, i) => !drop.has(i) && !QUOTED.test(line));
  dropTrailingBlank(kept);
  const last = kept[kept.length - 1];
  if (last !== undefined && last.trim().length <= 60 && DEVICE_SIGNATURE.test(last.trim())) {
    kept.pop();
  }
  return normalise(kept);
}

/**
 * Where the history starts, and attribution lines to drop above it. An attribution followed by
 * new text (an interleaved reply, as Thunderbird users write) is dropped alone, not cut at.
 */
function findHistory(lines: string[]): { end: number; drop: Set<number> } {
  const signature = lines.findIndex((line) => SIGNATURE_DELIMITER.test(line));
  const limit = signature < 0 ? lines.length : signature;
  const drop = new Set<number>();
  for (let i = 0; i < limit; i++) {
    const line = (lines[i] ?? "").trim();
    if (SEPARATOR.test(line)) {
      return { end: i, drop };
    }
    if (UNDERSCORES.test(line) && HEADER_FROM.test(nextNonBlank(lines, i + 1).trim())) {
      return { end: i, drop };
    }
    if (HEADER_FROM.test(line) && isHeaderBlock(lines, i)) {
      return { end: i, drop };
    }
    const span = attributionSpan(lines, i);
    if (span > 0) {
      if (onlyQuotedFrom(lines, i + span, limit)) {
        return { end: i, drop };
      }
      for (let k = 0; k < span; k++) {
        drop.add(i + k);
      }
      i += span - 1;
    }
  }
  return { end: limit, drop };
}

/** How many lines an attribution starting at line i spans, or 0. */
function attributionSpan(lines: string[], i: number): number {
  const first = (lines[i] ?? "").trim();
  if (!/^(?:on|pada)\s/i.test(first)) {
    // "Name wrote:" on its own counts only when quoted lines follow it.
    return ENDS_LIKE_ATTRIBUTION.test(first) && QUOTED.test(nextNonBlank(lines, i + 1)) ? 1 : 0;
  }
  let joined = first;
  for (let n = 0; n < ATTRIBUTION_MAX_LINES; n++) {
    if (n > 0) {
      const next = (lines[i + n] ?? "").trim();
      if (next.length === 0) {
        return 0;
      }
      joined += ` ${next}`;
    }
    if (joined.length > 500) {
      return 0;
    }
    if (ATTRIBUTION.test(normaliseSpaces(joined))) {
      return n + 1;
    }
  }
  return 0;
}

function onlyQuotedFrom(lines: string[], from: number, to: number): boolean {
  for (let j = from; j < to; j++) {
    const line = lines[j] ?? "";
    if (line.trim().length > 0 && !QUOTED.test(line)) {
      return false;
    }
  }
  return true;
}

function isHeaderBlock(lines: string[], i: number): boolean {
  for (let j = i + 1; j < Math.min(lines.length, i + 6); j++) {
    if (HEADER_NEXT.test((lines[j] ?? "").trim())) {
      return true;
    }
  }
  return false;
}

function nextNonBlank(lines: string[], from: number): string {
  for (let j = from; j < lines.length; j++) {
    const line = lines[j] ?? "";
    if (line.trim().length > 0) {
      return line;
    }
  }
  return "";
}

function dropTrailingBlank(lines: string[]): void {
  while (lines.length > 0 && (lines[lines.length - 1] ?? "").trim().length === 0) {
    lines.pop();
  }
}

// Gmail puts U+202F before AM/PM and clients use U+00A0 freely; the patterns expect spaces.
function normaliseSpaces(text: string): string {
  return text.replace(/[\u00a0\u2007\u202f]/g, " ");
}

function normalise(lines: string[]): string {
  return lines
    .map((line) => line.replace(/[ \t]+$/, ""))
    .join("\n")
    .replace(/\n{3,}/g, "\n\n")
    .trim();
}
