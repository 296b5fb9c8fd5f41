import type { Language as Lang } from "../../core/format";
import { namesAMonth } from "./periods";
import type { Turn } from "./schemas";
import { normalise, type Said } from "./spelling";

/**
 * The topics a conversation asks about (the built-in mode, builtin.ts), in Indonesian and English: each
 * normalised turn's intents; a turn without a topic of its own keeps the topic of the turn before it.
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
    namesAMonth(turn.text) ||
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
