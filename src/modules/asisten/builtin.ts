import type { TenantCtx } from "../../core/context";
import type { Language as Lang } from "../../core/format";
import { jakartaDay } from "../../core/time";
import {
  info,
  musyawarah,
  type Part,
  pengaduan,
  surat,
  syaratSurat,
  type Tools,
  t,
  tagihan,
  tamu,
} from "./builtin-answers";
import type { Source, Turn } from "./schemas";

/**
 * The built-in mode (no model configured): intent matching over the conversation, in Indonesian and
 * English, answered from the same tools as the model path with the caller's real figures.
 *
 * Each user turn is first normalised the way people type in a chat: informal short forms ("brp", "gmn",
 * "udh"), the "-nya" suffix ("bayarnya"), and one-letter typos of the topic words ("iuaran",
 * "tagiahn"). A turn without a topic of its own ("yang bulan oktober?", "kalau skck?", "terus
 * syaratnya?") keeps the topic of the turn before it, and its details (the month asked about, the kind
 * of letter) are read from the turns of that topic when the turn itself names none.
 */
export type Intent =
  | "tagihan"
  | "syarat_surat"
  | "surat"
  | "pengaduan"
  | "tamu"
  | "musyawarah"
  | "info"
  | "sapa"
  | "terima_kasih";

/** Informal spellings and short forms, replaced word by word before matching. */
const SHORT_FORMS: Record<string, string> = {
  brp: "berapa",
  brapa: "berapa",
  brpa: "berapa",
  gmn: "bagaimana",
  gmna: "bagaimana",
  gimana: "bagaimana",
  gmana: "bagaimana",
  bgmn: "bagaimana",
  bgmana: "bagaimana",
  udh: "sudah",
  udah: "sudah",
  sdh: "sudah",
  dah: "sudah",
  blm: "belum",
  blom: "belum",
  yg: "yang",
  sy: "saya",
  sya: "saya",
  aku: "saya",
  aq: "saya",
  gw: "saya",
  gue: "saya",
  gak: "tidak",
  ga: "tidak",
  gk: "tidak",
  nggak: "tidak",
  ngga: "tidak",
  enggak: "tidak",
  engga: "tidak",
  tdk: "tidak",
  klo: "kalau",
  kalo: "kalau",
  klw: "kalau",
  trs: "terus",
  trus: "terus",
  tlg: "tolong",
  bln: "bulan",
  tgl: "tanggal",
  utk: "untuk",
  dmn: "mana",
  kpn: "kapan",
  knp: "kenapa",
  aja: "saja",
  jd: "jadi",
  dgn: "dengan",
  bs: "bisa",
  bsa: "bisa",
  mo: "mau",
  byr: "bayar",
  bayr: "bayar",
  tghn: "tagihan",
  srt: "surat",
  skrg: "sekarang",
  skr: "sekarang",
  ni: "ini",
  tu: "itu",
  bikin: "buat",
  ngurus: "urus",
  mengurus: "urus",
  membayar: "bayar",
  dibayar: "bayar",
  bayaran: "bayar",
  nunggak: "tunggakan",
  menunggak: "tunggakan",
  makasih: "terima kasih",
  makasi: "terima kasih",
  mksh: "terima kasih",
  thx: "thanks",
  tq: "terima kasih",
  hai: "halo",
  hallo: "halo",
  hi: "halo",
  hello: "halo",
  assalamualaikum: "halo",
};

/** The topic words a typo is corrected to: one letter off (two for long words) turns into the word. */
const VOCABULARY = [
  "tagihan",
  "iuran",
  "bayar",
  "pembayaran",
  "tunggakan",
  "syarat",
  "persyaratan",
  "surat",
  "pengantar",
  "domisili",
  "keterangan",
  "pengaduan",
  "keluhan",
  "komplain",
  "laporan",
  "musyawarah",
  "voting",
  "pengunjung",
  "aturan",
  "peraturan",
  "jadwal",
  "kegiatan",
  "pengurus",
  "sekretaris",
  "bendahara",
  "agenda",
  "bagaimana",
  "berapa",
  "januari",
  "februari",
  "maret",
  "april",
  "agustus",
  "september",
  "oktober",
  "november",
  "desember",
];
/** Ordinary words one letter away from a topic word, never "corrected" ("honda" is no "ronda"). */
const KNOWN_WORDS = new Set([
  "sudah",
  "turun",
  "saran",
  "surut",
  "surau",
  "tarif",
  "bayam",
  "karet",
  "lapangan",
  "pengantin",
  "ketenangan",
  "perawatan",
]);

/** Optimal string alignment distance: insertions, deletions, substitutions and swapped neighbours. */
function distance(a: string, b: string): number {
  const d: number[][] = Array.from({ length: a.length + 1 }, (_, i) =>
    Array.from({ length: b.length + 1 }, (_, j) => (i === 0 ? j : j === 0 ? i : 0)),
  );
  for (let i = 1; i <= a.length; i++) {
    for (let j = 1; j <= b.length; j++) {
      const cost = a[i - 1] === b[j - 1] ? 0 : 1;
      const row = d[i] as number[];
      const up = d[i - 1] as number[];
      row[j] = Math.min((up[j] as number) + 1, (row[j - 1] as number) + 1, (up[j - 1] as number) + cost);
      if (i > 1 && j > 1 && a[i - 1] === b[j - 2] && a[i - 2] === b[j - 1]) {
        row[j] = Math.min(row[j] as number, ((d[i - 2] as number[])[j - 2] as number) + 1);
      }
    }
  }
  return (d[a.length] as number[])[b.length] as number;
}

function corrected(word: string): string {
  if (word.length < 5 || KNOWN_WORDS.has(word) || VOCABULARY.includes(word)) {
    return word;
  }
  const allowed = word.length >= 8 ? 2 : 1;
  for (const known of VOCABULARY) {
    if (Math.abs(known.length - word.length) <= allowed && distance(word, known) <= allowed) {
      return known;
    }
  }
  return word;
}

/** One user turn, normalised; `refers` when it points back ("bayarnya", "yang itu", "kalau …"). */
interface Said {
  text: string;
  refers: boolean;
}

export function normalise(raw: string): Said {
  let refers = false;
  const words = raw
    .toLowerCase()
    .replace(/apa2/g, "apa saja")
    .replace(/[^a-z0-9]+/g, " ")
    .trim()
    .split(" ")
    .filter(Boolean)
    .map((word) => {
      let w = SHORT_FORMS[word] ?? word;
      if (w.length >= 6 && w.endsWith("nya")) {
        w = w.slice(0, -3);
      }
      const plain = SHORT_FORMS[w] ?? corrected(w);
      // "bayarnya", "syaratnya", "tagihannya": the topic word points back; "programnya" does not.
      refers ||= plain !== word && VOCABULARY.includes(plain) && word.endsWith("nya");
      return plain;
    });
  const text = words.join(" ");
  return { text, refers: refers || FOLLOW_UP.test(text) };
}

const FOLLOW_UP =
  /^(dan|lalu|terus|kalau|bagaimana dengan|bagaimana kalau|yang|and|what about|how about)\b|\b(itu|tersebut|tadi|that one)\b/;

const LETTER_STATUS_WORDS =
  /\b(status|sudah|jadi|selesai|diproses|proses|sampai mana|ajukan|diajukan|pengajuan saya|unduh|download|pdf|nomor surat|my letters?|letter status)\b/;

/** The kinds of letter by what people call them; a kind of letter named alone asks for its requirements. */
export const LETTER_KINDS: Record<string, RegExp> = {
  pengantar_ktp_kk: /\b(ktp|e ktp|ektp|kk|kartu keluarga|kartu tanda penduduk)\b/,
  domisili: /\bdomisili\b/,
  tidak_mampu:
    /\b(tidak mampu|sktm)\b.*\b(sekolah|beasiswa|kuliah|pendidikan)\b|\b(sekolah|beasiswa)\b.*\b(tidak mampu|sktm)\b/,
  sktm: /\b(sktm|tidak mampu|keringanan biaya|bpjs)\b/,
  usaha: /\b(usaha|umkm|dagang|warung|berjualan)\b/,
  kematian: /\b(kematian|meninggal|wafat|almarhum)\b/,
  pindah: /\b(pindah|pindahan)\b/,
  kelahiran: /\b(kelahiran|lahir|akta|akte)\b/,
  belum_menikah: /\b(belum menikah|belum nikah|lajang|single)\b/,
  pengantar_skck: /\b(skck|kelakuan baik)\b/,
  izin_keramaian: /\b(keramaian|hajatan|pesta|nikahan|resepsi|orgen)\b/,
  kehilangan: /\b(kehilangan|hilang)\b/,
};

/** The kinds of letter a turn names, most specific first (SKTM for school before plain SKTM). */
export function letterKindsOf(text: string): string[] {
  const named = Object.entries(LETTER_KINDS)
    .filter(([, re]) => re.test(text))
    .map(([code]) => code);
  return named.includes("tidak_mampu") ? named.filter((c) => c !== "sktm") : named;
}

const INTENTS: [Intent, RegExp][] = [
  [
    "tagihan",
    /\b(tagihan|iuran|bayar|pembayaran|tunggakan|lunas|utang|hutang|kas|tagih|qris|transfer|kuitansi|kwitansi|dues|bills?|pay(ment)?|fees?|owe|arrears)\b/,
  ],
  [
    "syarat_surat",
    /\b(syarat|persyaratan|jenis surat|macam surat|surat apa saja|surat pengantar apa|perlu apa|butuh apa|bawa apa|dokumen apa|berkas|cara (buat|mengajukan|ajukan|minta|urus) surat|(buat|minta|urus|ajukan) surat|requirements?|what do i need|kinds? of letters?|types? of letters?)\b/,
  ],
  ["surat", /\b(surat|letters?|pengantar|sktm)\b/],
  [
    "pengaduan",
    /\b(pengaduan|aduan|adukan|mengadu|keluhan|komplain|lapor|laporan|melapor|aspirasi|complaints?|report|lampu( [a-z]+){0,3} mati|mati lampu|rusak|mampet|bocor|banjir|berisik|bising|sampah (menumpuk|numpuk))\b/,
  ],
  ["tamu", /\b(tamu|pengunjung|kunjungan|berkunjung|menginap|nginap|nginep|visitors?|guests?)\b/],
  [
    "musyawarah",
    /\b(musyawarah|voting|vote|polling|polls?|pemungutan suara|pemilihan|pilihan|pilih|coblos|memilih)\b/,
  ],
  [
    "info",
    /\b(jam|aturan|peraturan|tata tertib|agenda|jadwal|kegiatan|pengurus|ketua|sekretaris|bendahara|ronda|siskamling|kerja bakti|portal|gerbang|sekretariat|posyandu|rapat|rules?|hours?|schedule|officers?|events?)\b/,
  ],
];

const GREETING =
  /^(halo|selamat (pagi|siang|sore|malam)|pagi|permisi|good (morning|afternoon|evening)|hey)\b/;
const THANKS = /\b(terima kasih|thanks|thank you|sip|mantap|oke|ok|baik)\b/;

const EN = /\b(what|how|my|is|are|the|show|do|does|when|which|can|i|any|have|pending|status)\b/g;
const ID = /\b(apa|bagaimana|berapa|saya|yang|sudah|belum|ada|kapan|mana|tolong|dong|ya|bisa|kalau)\b/g;

function languageOf(text: string): Lang {
  const en = text.match(EN)?.length ?? 0;
  const id = text.match(ID)?.length ?? 0;
  return en > id ? "en" : "id";
}

function intentsOf(text: string): Intent[] {
  let found = INTENTS.filter(([, re]) => re.test(text)).map(([intent]) => intent);
  const kinds = letterKindsOf(text);
  // A kind of letter named alone ("syarat SKCK?", "kalau domisili?") asks what it needs; with a word of
  // progress ("surat domisili saya sudah jadi?") it asks about the caller's own letter.
  if (kinds.length > 0 && !found.includes("syarat_surat")) {
    if (LETTER_STATUS_WORDS.test(text) && /\b(surat|letters?)\b/.test(text)) {
      found = found.includes("surat") ? found : [...found, "surat"];
    } else if (found.length === 0 || found.includes("surat")) {
      found = [...found, "syarat_surat"];
    }
  }
  // "syarat surat domisili" is about requirements, not the caller's own letters.
  if (found.includes("syarat_surat")) {
    found = found.filter((i) => i !== "surat");
  }
  if (found.length === 0 && GREETING.test(text)) {
    return ["sapa"];
  }
  if (found.length === 0 && THANKS.test(text)) {
    return ["terima_kasih"];
  }
  return found;
}

const FIRST_TOPIC = new Set<Intent>(["sapa", "terima_kasih"]);

/** Words that ask about whatever the conversation is about ("totalnya berapa?", "berlaku berapa lama?"). */
const QUESTION_WORDS = new Set(
  "apa berapa kapan sudah belum total lama berlaku bagaimana di mana saja lagi yang itu ini dong ya sih kalau terus bulan tanggal jam lunas semua when how much many what about and then is it".split(
    " ",
  ),
);

/**
 * A turn without a topic of its own continues the previous one when it points back ("kalau …",
 * "bayarnya"), names a detail of a topic (a month, a kind of letter) or asks only in question words; a
 * short question about something else ("siapa presiden?") does not.
 */
function continuesTopic(turn: Said): boolean {
  const words = turn.text.split(" ");
  return (
    turn.refers ||
    MONTHS.some(([re]) => re.test(turn.text)) ||
    letterKindsOf(turn.text).length > 0 ||
    (words.length <= 5 && words.every((w) => QUESTION_WORDS.has(w)))
  );
}

export interface Detected {
  intents: Intent[];
  /** The last user turn, normalised. */
  text: string;
  /** The earlier user turns of the same topic, newest first: where a follow-up's details are read. */
  context: string[];
  lang: Lang;
}

/**
 * The intents of the last user turn. A turn with no topic of its own takes the topic of the turn before
 * it (as that turn was understood, so a chain of follow-ups keeps one topic).
 */
export function detect(messages: readonly Turn[]): Detected {
  const said = messages.filter((m) => m.role === "user").map((m) => normalise(m.content));
  let topics: Intent[] = [];
  const understood: Intent[][] = [];
  for (const turn of said) {
    const own = intentsOf(turn.text);
    const continues = own.length === 0 && topics.length > 0 && continuesTopic(turn);
    topics = own.length > 0 ? own : continues ? topics : [];
    understood.push(topics);
  }
  const last = said.at(-1) ?? { text: "", refers: false };
  const intents = understood.at(-1) ?? [];
  const own = intentsOf(last.text);
  const context: string[] = [];
  if (own.length === 0 || last.refers) {
    for (let i = said.length - 2; i >= 0; i--) {
      const earlier = understood[i] ?? [];
      if (!earlier.some((intent) => intents.includes(intent) && !FIRST_TOPIC.has(intent))) {
        break;
      }
      context.push(said[i]?.text ?? "");
    }
  }
  return { intents, text: last.text, context, lang: languageOf(last.text) };
}

const MONTHS: [RegExp, number][] = [
  [/\b(januari|january|jan)\b/, 1],
  [/\b(februari|february|pebruari|feb)\b/, 2],
  [/\b(maret|march|mar)\b/, 3],
  [/\b(april|apr)\b/, 4],
  [/\b(mei|bulan may)\b/, 5],
  [/\b(juni|june|jun)\b/, 6],
  [/\b(juli|july|jul)\b/, 7],
  [/\b(agustus|august|agu|agt|ags|aug)\b/, 8],
  [/\b(september|sept|sep)\b/, 9],
  [/\b(oktober|october|okt|oct)\b/, 10],
  [/\b(november|nopember|nov)\b/, 11],
  [/\b(desember|december|des|dec)\b/, 12],
];

const periodOf = (year: number, month: number) => `${year}-${String(month).padStart(2, "0")}`;

function shift(period: string, months: number): string {
  const [year, month] = period.split("-").map(Number) as [number, number];
  const index = year * 12 + (month - 1) + months;
  return periodOf(Math.floor(index / 12), (index % 12) + 1);
}

/**
 * The billing period a turn asks about ("bulan oktober", "okt 2025", "bulan lalu", "bulan ini"), or null.
 * A month without a year is its latest occurrence up to this month.
 */
export function periodAsked(text: string, now: Date): string | null {
  const current = jakartaDay(now).slice(0, 7);
  if (/\b(bulan ini|this month)\b/.test(text)) {
    return current;
  }
  if (/\b(bulan lalu|bulan kemarin|bulan sebelumnya|last month|previous month)\b/.test(text)) {
    return shift(current, -1);
  }
  if (/\b(bulan depan|next month)\b/.test(text)) {
    return shift(current, 1);
  }
  const month = MONTHS.find(([re]) => re.test(text))?.[1];
  if (!month) {
    return null;
  }
  const year = /\b(20\d\d)\b/.exec(text)?.[1];
  if (year) {
    return periodOf(Number(year), month);
  }
  const [y, m] = current.split("-").map(Number) as [number, number];
  return periodOf(month <= m ? y : y - 1, month);
}

/** "how do I pay", "bayarnya gimana", "bisa transfer?": the way to pay, with the link to the bills. */
const HOW_TO_PAY =
  /\b(cara (bayar|pembayaran)|bayar (bagaimana|di mana|mana|lewat|pakai|via|ke)|bagaimana (cara )?(bayar|pembayaran)|(bisa|mau) bayar|bayar (online|tunai|transfer)|qris|transfer|how (do|can) i pay|how to pay|where (do|can) i pay)\b/;

function help(lang: Lang, greeting = false): string {
  return t(
    lang,
    [
      greeting
        ? "Halo! Saya asisten warga. Saya bisa menjawab tentang:"
        : "Maaf, saya belum memahami pertanyaan itu. Saya bisa menjawab tentang:",
      '- tagihan iuran Anda dan cara membayarnya ("tagihan saya", "cara bayar iuran")',
      '- status surat Anda dan syarat tiap jenis surat ("status surat", "syarat SKCK")',
      '- pengaduan Anda ("status pengaduan")',
      '- tamu yang Anda daftarkan ("tamu saya")',
      '- musyawarah yang sedang dibuka ("musyawarah aktif")',
      '- pengurus, aturan, jam layanan dan agenda RT ("aturan RT", "jadwal ronda")',
    ].join("\n"),
    [
      greeting
        ? "Hello! I am the residents' assistant. I can answer about:"
        : "Sorry, I did not understand that. I can answer about:",
      '- your dues and how to pay them ("my bills", "how do I pay")',
      '- your letters and what each kind needs ("letter status", "letter requirements")',
      '- your complaints ("my complaints")',
      '- the guests you registered ("my guests")',
      '- open polls ("open polls")',
      '- the officers, rules, hours and agenda ("rules", "who are the officers")',
    ].join("\n"),
  );
}

export async function builtinReply(
  _ctx: TenantCtx,
  tools: Tools,
  messages: readonly Turn[],
  now: Date,
): Promise<{ reply: string; sources: Source[] }> {
  const { intents, text, context, lang } = detect(messages);
  if (intents.length === 0) {
    return { reply: help(lang), sources: [] };
  }
  // A detail the last turn does not name is read from the earlier turns of its topic.
  const recall = <T>(read: (s: string) => T | null): T | null => {
    for (const s of [text, ...context]) {
      const found = read(s);
      if (found !== null) {
        return found;
      }
    }
    return null;
  };
  const answer: Record<Intent, () => Promise<Part>> = {
    tagihan: () =>
      tagihan(tools, lang, {
        period: recall((s) => periodAsked(s, now)),
        howToPay: HOW_TO_PAY.test(text),
        now,
      }),
    surat: () => surat(tools, lang),
    syarat_surat: () =>
      syaratSurat(tools, lang, recall((s) => (letterKindsOf(s).length ? letterKindsOf(s) : null)) ?? []),
    pengaduan: () => pengaduan(tools, lang),
    tamu: () => tamu(tools, lang),
    musyawarah: () => musyawarah(tools, lang),
    info: () => info(tools, lang),
    sapa: async () => ({ text: help(lang, true), sources: [] }),
    terima_kasih: async () => ({
      text: t(
        lang,
        "Sama-sama! Silakan bertanya lagi bila ada yang lain.",
        "You are welcome! Ask again any time.",
      ),
      sources: [],
    }),
  };
  const parts = await Promise.all(intents.map((intent) => answer[intent]()));
  return { reply: parts.map((p) => p.text).join("\n\n"), sources: parts.flatMap((p) => p.sources) };
}
