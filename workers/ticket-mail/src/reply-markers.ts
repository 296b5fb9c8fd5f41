// The shapes mail clients write around the history of a reply, line by line: separators, header
// blocks, attributions, quote prefixes and closing footers. strip-quotes.ts decides what to do with
// them; every pattern here is linear on a line of any length (the callers cap joined lines at 500).

// "-----Original Message-----" and its translations: the history of this reply.
export const REPLY_SEPARATOR =
  /^-{2,}\s*(?:original message|pesan asli|mensaje original|message d'origine|messaggio originale|ursprüngliche nachricht|oorspronkelijk bericht|mensagem original|oprindelig meddelelse|opprinnelig melding|ursprungligt meddelande|originalmeddelande|wiadomość oryginalna)\s*-{2,}$/i;
// A forwarded message: content the sender chose to send, not this ticket's history. Gmail and
// Thunderbird write dashes around it, Apple Mail a "Begin forwarded message:" line.
export const FORWARD_SEPARATOR =
  /^(?:-{2,}\s*(?:forwarded message|pesan yang diteruskan|pesan terusan|pesan diteruskan|weitergeleitete nachricht|message transféré|mensaje reenviado|messaggio inoltrato|doorgestuurd bericht|mensagem encaminhada|videresendt meddelelse|videresendt melding|vidarebefordrat meddelande|wiadomość przekazana)\s*-{2,}|(?:begin forwarded message|awal pesan yang diteruskan|pesan yang diteruskan|pesan terusan|anfang der weitergeleiteten nachricht|début du message réexpédié|inicio del mensaje reenviado|videresendt meddelelse|videresendt melding|start på videresendt besked|vidarebefordrat mejl|vidarebefordrat meddelande)\s*:)$/i;
// Outlook's rule above a header block, and the row of "=" some webmails write there.
export const UNDERSCORES = /^(?:_{8,}|={8,})$/;
// A mailing list's footer under its rule ("riak-users mailing list"): the list's, never the sender's.
export const MAILING_LIST = /\bmailing list$/i;

// Header lines of a quoted message in the locales Outlook, GMX, Zimbra and phones write:
// en, id, de, es, pt, fr, it, nl, pl, da/no/sv. "From" names the sender; the rest follow it in any order.
export const HEADER_FROM = /^\*?(?:from|dari|von|de|da|van|od|från|fra|发件人|寄件者|от)\s*[:：]\*?\s*\S/i;
export const HEADER_ANY =
  /^\*?(?:from|dari|von|de|da|van|od|från|fra|sent|date|to|cc|subject|dikirim|tanggal|kepada|ke|subjek|perihal|tembusan|gesendet|datum|an|betreff|enviado|enviada em|fecha|para|asunto|assunto|envoyé|à|objet|sujet|copie à|inviato|data|a|oggetto|verzonden|aan|onderwerp|wysłane|do|temat|skickat|till|ämne|kopia|sendt|til|emne|dato|kopi|от|отправлено|кому|тема)\s*:\*?(?:\s|$)|^\*?(?:envoyé le|message du|发件人|发送时间|收件人|抄送|主题|寄件者|寄件日期|收件者|主旨)\s*[:：]/i;
// The line that dates a quoted message: Sent, Date, Dikirim, Tanggal, Gesendet, Envoyé …
export const HEADER_DATE =
  /^\*?(?:sent|date|dikirim|tanggal|gesendet|datum|enviado|enviada em|fecha|envoyé|envoyé le|message du|date|inviato|data|verzonden|wysłane|skickat|sendt|dato|отправлено|发送时间|寄件日期)\s*[:：]/i;
const HEADER_SUBJECT =
  /^\*?(?:subject|subjek|perihal|betreff|asunto|assunto|objet|sujet|oggetto|onderwerp|temat|ämne|emne|тема|主题|主旨)\s*[:：]\*?\s*/i;
// Subject prefixes: a forward (FW, Fwd, TR, WG, RV, I, Doorst, VS, VB, ENC, PD) or a reply.
const FORWARD_SUBJECT = /^(?:fwd?|tr|wg|rv|i|doorst|vs|vb|enc|pd)\s*:/i;
const REPLY_SUBJECT = /^(?:re|aw|sv|r|res|antw|odp|balas)\s*:/i;

/** What a header block's subject says it is: this ticket's thread, a forward, or unknown. */
export function subjectKind(line: string): "reply" | "forward" | "unknown" {
  const subject = line.replace(HEADER_SUBJECT, "");
  if (subject === line) {
    return "unknown";
  }
  if (FORWARD_SUBJECT.test(subject)) {
    return "forward";
  }
  return REPLY_SUBJECT.test(subject) || /\[\s*TKT\s*:/i.test(subject) ? "reply" : "unknown";
}

export function isSubjectLine(line: string): boolean {
  return HEADER_SUBJECT.test(line);
}

// Attribution verbs at the end of a line ("… wrote:", "… menulis:", "… a écrit :" …).
const VERB =
  "wrote|menulis|escribió|ha escrit|a\\s+écrit|ha scritto|scrisse|escreveu|het volgende geschreven|schreef|pisze|napisał(?:a|\\(a\\))?|написал(?:а|\\(а\\))?|написав|написала|írta";
// "On … wrote:" in many languages: a start word, a date (so a digit), the verb at the end, with
// Zimbra's leading "- " and Zoho's "---- … ----" around it. German and Scandinavian clients put
// the name after the verb ("Am … schrieb Name <a@b>:", "Den … skrev Name:"), Norwegian and Swedish
// Gmail and Apple Mail drop "Den" ("tir. 3. nov. 2026 kl. 10:00 skrev Name <a@b>:"), and some
// clients put the name first ("Name <a@b> schrieb am …:", "Name wrote on …:").
// Each form is a start test and an end test, both linear, over at most 500 characters.
// After "schrieb"/"skrev" comes a name (capitalised or quoted) or an address: "Am 3.11. um 10:00
// schrieb ich an die Stadt:" and "Den 3. nov. kl. 10:00 skrev jeg til kommunen:" are sentences.
export const NAME_AFTER_VERB = /\s(?:[Ss]chrieb|[Ss]krev|schreef)\s+(?:["'(<\p{Lu}]|[^\s:]+@)[^:]*:\s*-*$/u;
// The third element says whether a time with a numeric date makes the form strong (see
// STRONG_TIME); a name-first line needs an address, since "Saya menulis pada 3.11.2026 jam 10.00:"
// is a sentence.
export const ATTRIBUTION_FORMS: [start: RegExp, end: RegExp, timeIsEnough: boolean][] = [
  [
    /^[-\s]*(?:on|pada|el|le|il giorno|il|em|op|w dniu|dnia)\s/i,
    new RegExp(`[\\s>](?:${VERB})\\s*:?\\s*-*$`, "i"),
    true,
  ],
  [/^[-\s]*(?:am|den|d\.|op)\s/i, NAME_AFTER_VERB, true],
  // Date first, in any language: "20 окт. 2016 г., в 12:10, Name написал:", "02.04.2012 14:20
  // пользователь Name <a@b> написал:", "2013.02.08. 7:31 keltezéssel, Name írta:".
  [/^[-\s]*(?:\p{L}{2,4}\.?,?\s+)?\d/u, new RegExp(`[\\s>](?:${VERB})\\s*:\\s*$`, "i"), true],
  // Date first and an address in brackets, then a short verb in any script and a colon: the shape
  // of Apple Mail and Gmail in locales without a verb above ("… <a@b> 写道：", "… <a@b> 작성:").
  [
    /^[^<>]{0,160}\d[^<>]{0,160}</,
    /<[^<>\s]+@[^<>\s]+>\s?[^\s<>:：]{1,20}(?:\s[^\s<>:：]{1,20}){0,2}\s*[:：]\s*$/u,
    true,
  ],
  [
    /^[-\s]*(?:\p{L}{2,4}\.?,?\s+)?\d{1,2}\.?\s.{0,60}?\s[Kk]l\.?\s*\d{1,2}[:.]\d{2},?\s+[Ss]krev\s/u,
    NAME_AFTER_VERB,
    true,
  ],
  [
    /^\S.{0,200}?\s(?:wrote|menulis|schrieb|a écrit|skrev|escribió|ha scritto|escreveu|schreef)\s+(?:on|pada|tanggal|am|le|den|el|il|em|op)\s/i,
    /:\s*$/,
    false,
  ],
  // Gmail in some locales: "2014-03-09 20:48 GMT+01:00 Name <a@b>:", "2026/11/3 Name <a@b> wrote:".
  [/^\d{4}[-/]\d{1,2}[-/]\d{1,2}\s/, /<[^<>\s]+@[^<>\s]+>\s*:$/, true],
  [/^\d{4}[-/]\d{1,2}[-/]\d{1,2}\s/, new RegExp(`\\s(?:${VERB})\\s*:$`, "i"), true],
];
// Older Gmail in some locales writes only "2026/11/3 Name <a@b>" (or "Name via Service <a@b>")
// above the quote: an attribution only when quoted lines follow.
export const DATE_FIRST_BARE =
  /^\d{4}[-/]\d{1,2}[-/]\d{1,2}\s(?:\d{1,2}[:.]\d{2}\s)?.{0,200}<[^<>\s]+@[^<>\s]+>$/;
export const ATTRIBUTION_START =
  /^[-\s]*(?:on|pada|el|le|il|em|op|w dniu|dnia|am|den|d\.|\d{4}[-/]\d{1,2}[-/]\d{1,2}|\d{1,2}[./]\d{1,2}[./]\d{2,4},?\s+\d{1,2}[:.]\d{2})\s/i;
export const ENDS_LIKE_ATTRIBUTION =
  /[\s>](?:wrote|writes|menulis|schrieb|escribió|écrit|escrit|scritto|escreveu|pisze|skrev|schreef|napisał(?:a|\(a\))?|написал(?:а)?|написав|írta)\s*:$/i;
// An address, or a time with a numeric date ("04/19/2011 07:10 AM", "03.11.2026 um 09:12"): what
// a client's attribution has and a sentence of the sender's ("Pada 3 November pukul 10.00 Pak
// Lurah menulis:") rarely does.
export const STRONG_TIME = /\b\d{1,2}[:.]\d{2}\b/;
export const NUMERIC_DATE = /\b\d{1,4}[./-]\d{1,2}[./-]\d{2,4}\b/;

// Quote prefixes: ">" always; "|" and Supercite's initials ("C>", "AB>") when the message uses
// them under an attribution (strip-quotes.ts), since a "|" line may be the sender's table.
export const QUOTE_GT = /^\s*>/;
// Supercite and Gnus write the quoted person's initials or name: "C>", "AB>", "Budi>".
const ALT_QUOTE = /^\s*(?:\|(?:\s|$)|(\p{Lu}\p{L}{0,19})>)/u;

/** The quote style of a line other than ">": "|", the initials, or null. */
export function altQuotePrefix(line: string): string | null {
  const match = ALT_QUOTE.exec(line);
  if (match === null) {
    return null;
  }
  if (match[1] !== undefined) {
    return match[1];
  }
  // "| Nama | Blok |" is a table row of the sender's, not a quote.
  const rest = line.trim();
  return rest.length > 1 && rest.endsWith("|") ? null : "|";
}

// "-- " (RFC 3676), a bare "--", and the dash lines GitHub and others put above their footers.
export const SIGNATURE_DELIMITER = /^(?:--|—|–)\s?$/;

// Client, phone-app and antivirus footers: dropped only at the close of the reply, since
// Indonesian "dikirim dari …" is also an ordinary phrase. Phone apps sign in the phone's language.
const FOOTER = new RegExp(
  `^(?:${[
    // English: iOS and Android mail apps, Windows Mail, webmail apps.
    "sent from (?:my \\S|mail for windows|outlook|mail|yahoo|samsung|gmail|proton|bluemail|aol|the all new aol|spark|edison|mymail|newton|tutanota|zoho)",
    "sent with ",
    "sent via ",
    "sent using ",
    "get (?:outlook|bluemail|spark) for (?:ios|android)",
    "download outlook for (?:ios|android)",
    // Indonesian.
    "dikirim dari (?:iphone|ipad|ponsel|perangkat|samsung|yahoo|outlook|mail|gmail|huawei|xiaomi|oppo|vivo|realme|android|tablet|bluemail|spark|galaxy|smartphone|redmi|aplikasi)",
    "dikirim (?:dengan|melalui|via|menggunakan) (?:spark|bluemail|outlook|yahoo|gmail|k-9|aplikasi)",
    "dapatkan outlook untuk (?:ios|android)",
    // French.
    "envoyé (?:de|depuis|à partir de) (?:mon|ma|l'application|yahoo|outlook|bluemail|gmail|courrier)",
    "envoyé avec ",
    "(?:obtenir|télécharger|téléchargez) outlook pour (?:ios|android)",
    // German.
    "von meine[mr]? .* gesendet",
    "gesendet (?:von|vom|mit|über) (?:meine[mr]?|der|yahoo|outlook|mail|bluemail|gmx|web\\.de|spark|samsung|gmail|aol)",
    "(?:holen sie sich|laden sie) outlook für (?:ios|android)",
    "outlook für (?:ios|android) (?:herunterladen|beziehen)",
    "diese nachricht wurde von meine[mr]? .* gesendet",
    // Danish, Norwegian, Swedish.
    "sendt fra (?:min|mitt|yahoo|outlook|mail|e-post|gmail|bluemail|samsung)",
    "skickat från (?:min|mitt|yahoo|outlook|e-post|mail|gmail|bluemail|samsung)",
    "(?:hent|få) outlook for (?:ios|android)",
    "skaffa outlook för (?:ios|android)",
    // Spanish, Italian, Dutch, Portuguese.
    "enviado desde (?:mi|yahoo|outlook|gmail)",
    "inviato da(?:l mio)? ",
    "verzonden (?:vanaf|met|van) ",
    "enviado do meu ",
    // Antivirus.
    "virus-free\\.?\\s*(?:www\\.)?avast",
    "this email has been checked for viruses by",
    "email ini (?:telah|sudah) diperiksa",
    "bebas virus\\.?\\s*(?:www\\.)?avast",
  ].join("|")})`,
  "i",
);
// K-9 Mail's line and carrier lines carry punctuation that the short phrases above must not.
const FOOTER_SENTENCE = [
  /^(?:sent from my|envoyé de mon|dikirim dari perangkat)\s.{0,60}\bk-9 mail\b.{0,80}$/i,
  /^diese nachricht wurde von meine[mr]? .{0,60}\bk-9 mail\b.{0,40}$/i,
  /^sent (?:from|via) (?:my |the )?(?:verizon|sprint|t-mobile|at&t|samsung|galaxy)\b[^:;]{0,80}\b(?:smartphone|device|phone)\.?$/i,
  /^yahoo mail: search, organi[sz]e, conquer\.?$/i,
];
const FOOTER_MAX_CHARS = 120;

/** A footer line is the phrase alone: "Sent from my phone, the pump works" is the sender's. */
export function isFooterLine(line: string): boolean {
  if (line.length > FOOTER_MAX_CHARS) {
    return false;
  }
  return FOOTER_SENTENCE.some((re) => re.test(line)) || (!/[,;:](?!\/\/)/.test(line) && FOOTER.test(line));
}

export function isLinkLine(line: string): boolean {
  return /^<?(?:https?:\/\/|www\.)\S+>?$/i.test(line);
}
