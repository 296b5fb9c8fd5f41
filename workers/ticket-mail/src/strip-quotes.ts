// Keeps only what the sender wrote in this reply. Clients write the history in a handful of
// shapes, in every locale (test/corpus/ holds 100 real-world shapes with the expected text):
//   Gmail        "On Sat, Nov 21, 2026 at 10:00 AM Name <a@b> wrote:" (often wrapped) + "> " lines
//                "Pada tanggal Sab, 21 Nov 2026 pukul 10.00 Name <a@b> menulis:", "Am … schrieb …:",
//                "El … escribió:", "Le … a écrit :", "Il giorno … ha scritto:", "Em … escreveu:"
//   Apple Mail   "On 21 Nov 2026, at 10:00, Name <a@b> wrote:" / "Pada 21 Nov 2026, pukul 10.00, … menulis:"
//   Thunderbird  "On 11/21/26 10:00, Name wrote:" / "Pada 21/11/26 10.00, Name menulis:"
//   Zoho, Zimbra "---- On … wrote ----", "- Le … a écrit :"
//   Outlook      "________________________________" then "From:/Sent:/To:/Subject:" in any locale
//                ("Dari:/Dikirim:/Kepada:/Perihal:", "Da:/Data:/A:/Oggetto:", "Von:/Gesendet:" …),
//                or "-----Original Message-----" / "-----Pesan Asli-----"
// Everything from the first such marker on is history, because replies are top-posted; quoted
// "> " lines are dropped wherever they are, which keeps the new text of interleaved replies. What
// follows a "--" signature delimiter goes, and so does a closing client or antivirus footer.
// The maintained npm parsers scored lower on the corpus (docs/adr/XXXX-reply-stripping.md).

const SEPARATOR =
  /^-{2,}\s*(?:original message|forwarded message|pesan asli|pesan yang diteruskan|pesan terusan|pesan diteruskan|mensaje original|message d'origine|messaggio originale|ursprüngliche nachricht|oorspronkelijk bericht|mensagem original)\s*-{2,}$/i;
const UNDERSCORES = /^_{8,}$/;
// Header lines of a quoted message in the locales Outlook, GMX, Zimbra and phones write:
// en, id, de, es, pt, fr, it, nl, pl, sv/da. "From" names the sender; the rest follow it in any order.
const HEADER_FROM = /^\*?(?:from|dari|von|de|da|van|od|från|fra)\s*:\*?\s*\S/i;
const HEADER_ANY =
  /^\*?(?:from|dari|von|de|da|van|od|från|fra|sent|date|to|cc|subject|dikirim|tanggal|kepada|ke|subjek|perihal|gesendet|datum|an|betreff|enviado|enviada em|fecha|para|asunto|assunto|envoyé|à|objet|inviato|data|a|oggetto|verzonden|aan|onderwerp|wysłane|do|temat|skickat|till|ämne)\s*:\*?(?:\s|$)/i;
// "On … wrote:" in many languages: a start word, a date (so a digit), the verb at the end, with
// Zimbra's leading "- " and Zoho's "---- … ----" around it. German and Scandinavian clients put
// the name after the verb ("Am … schrieb Name <a@b>:", "Den … skrev Name:").
// Each form is a start test and an end test, both linear, over at most 500 characters.
const ATTRIBUTION_FORMS: [start: RegExp, end: RegExp][] = [
  [
    /^[-\s]*(?:on|pada|el|le|il giorno|il|em|op|w dniu|dnia)\s/i,
    /\s(?:wrote|menulis|escribió|(?:a\s+)?écrit|ha scritto|scrisse|escreveu|het volgende geschreven|schreef|pisze|napisał(?:\(a\))?)\s*:?\s*-*$/i,
  ],
  [/^[-\s]*(?:am|den|d\.)\s/i, /\s(?:schrieb|skrev)\s[^:]*:\s*-*$/i],
  // Gmail in some locales: "2014-03-09 20:48 GMT+01:00 Name <a@b>:".
  [/^\d{4}-\d{2}-\d{2} \d{1,2}:\d{2}\s/, /<[^<>\s]+@[^<>\s]+>\s*:$/],
];
const ATTRIBUTION_START = /^[-\s]*(?:on|pada|el|le|il|em|op|w dniu|dnia|am|den|d\.|\d{4}-\d{2}-\d{2})\s/i;
const ENDS_LIKE_ATTRIBUTION = /\s(?:wrote|menulis|schrieb|escribió|écrit|scritto|escreveu|pisze)\s*:$/i;
const QUOTED = /^\s*>/;
// "-- " (RFC 3676), a bare "--", and the dash lines GitHub and others put above their footers.
const SIGNATURE_DELIMITER = /^(?:--|—|–)\s?$/;
// Client and antivirus footers: dropped only as the last paragraph of the reply, since
// Indonesian "dikirim dari …" is also an ordinary phrase.
const FOOTER =
  /^(?:sent from (?:my \S|mail for windows|outlook|mail|yahoo|samsung|gmail|proton)|sent with |sent via |get outlook for (?:ios|android)|dikirim dari (?:iphone|ipad|ponsel|perangkat|samsung|yahoo|outlook|mail|gmail|huawei|xiaomi|oppo|vivo|realme|android|tablet)|dapatkan outlook untuk (?:ios|android)|envoyé de mon|enviado desde mi|inviato da(?:l mio)? |von meinem .* gesendet|verzonden vanaf|virus-free\.?\s*(?:www\.)?avast|this email has been checked for viruses by|email ini (?:telah|sudah) diperiksa|bebas virus\.?\s*(?:www\.)?avast)/i;
const FOOTER_PARAGRAPH_MAX_LINES = 3;
// Gmail and others wrap a long attribution over up to three lines.
const ATTRIBUTION_MAX_LINES = 3;

// A reply is a few paragraphs; beyond this it is pasted logs or abuse, and the rest is history.
const MAX_TEXT_CHARS = 1_000_000;

export function stripQuotedText(input: string): string {
  const lines = input.slice(0, MAX_TEXT_CHARS).replace(/\r\n?/g, "\n").split("\n");
  const { end, drop } = findHistory(lines);
  const kept = lines.slice(0, end).filter((line, i) => !drop.has(i) && !QUOTED.test(line));
  dropFooters(kept);
  return normalise(kept);
}

/** Drops client and antivirus footers closing the reply ("Sent from my iPhone", Avast). */
function dropFooters(kept: string[]): void {
  for (;;) {
    dropTrailingBlank(kept);
    let start = kept.length;
    while (start > 0 && (kept[start - 1] ?? "").trim().length > 0) {
      start--;
    }
    const paragraph = kept.slice(start).map((line) => normaliseSpaces(line).trim());
    // Every line a footer, or the link a footer line carries; a sentence after one is the sender's.
    const isFooter =
      paragraph.length > 0 &&
      paragraph.length <= FOOTER_PARAGRAPH_MAX_LINES &&
      isFooterLine(paragraph[0] ?? "") &&
      paragraph.every((line) => isFooterLine(line) || /^(?:https?:\/\/|www\.)\S+$/i.test(line));
    if (!isFooter) {
      return;
    }
    kept.splice(start);
  }
}

/** A footer line is the phrase alone: "Sent from my phone, the pump works" is the sender's. */
function isFooterLine(line: string): boolean {
  return line.length <= 80 && !/[,;:](?!\/\/)/.test(line) && FOOTER.test(line);
}

/**
 * Where the history starts, and attribution lines to drop above it. An attribution followed by
 * quoted lines and then new text (an interleaved reply, as Thunderbird users write) is dropped
 * alone, not cut at; one followed by unquoted text starts history that the client did not mark.
 */
function findHistory(lines: string[]): { end: number; drop: Set<number> } {
  const signature = lines.findIndex((line) => SIGNATURE_DELIMITER.test(line.trim()));
  const limit = signature < 0 ? lines.length : signature;
  const drop = new Set<number>();
  // The last line of new text before the limit: what follows an attribution is all quoted when
  // this lies above it. Computed once, so many attributions cost no rescans.
  let lastUnquoted = -1;
  for (let j = limit - 1; j >= 0; j--) {
    const line = lines[j] ?? "";
    if (line.trim().length > 0 && !QUOTED.test(line)) {
      lastUnquoted = j;
      break;
    }
  }
  for (let i = 0; i < limit; i++) {
    const line = normaliseSpaces(lines[i] ?? "").trim();
    if (SEPARATOR.test(line)) {
      return { end: i, drop };
    }
    if (UNDERSCORES.test(line) && HEADER_ANY.test(nextNonBlank(lines, i + 1).trim())) {
      return { end: i, drop };
    }
    if (HEADER_ANY.test(line) && isHeaderBlock(lines, i)) {
      return { end: i, drop };
    }
    const span = attributionSpan(lines, i);
    if (span > 0) {
      const next = nextNonBlank(lines, i + span);
      if (!QUOTED.test(next) || lastUnquoted < i + span) {
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
  const first = normaliseSpaces(lines[i] ?? "").trim();
  if (!ATTRIBUTION_START.test(first)) {
    // "Name wrote:" on its own counts only when quoted lines follow it.
    return ENDS_LIKE_ATTRIBUTION.test(first) && QUOTED.test(nextNonBlank(lines, i + 1)) ? 1 : 0;
  }
  let joined = first;
  for (let n = 0; n < ATTRIBUTION_MAX_LINES; n++) {
    if (n > 0) {
      const next = normaliseSpaces(lines[i + n] ?? "").trim();
      if (next.length === 0) {
        return 0;
      }
      joined += ` ${next}`;
    }
    if (joined.length > 500) {
      return 0;
    }
    if (
      /\d/.test(joined) &&
      ATTRIBUTION_FORMS.some(([start, end]) => start.test(joined) && end.test(joined))
    ) {
      return n + 1;
    }
  }
  return 0;
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
