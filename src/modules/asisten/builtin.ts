import type { TenantCtx } from "../../core/context";
import type { Language as Lang } from "../../core/format";
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
 * The built-in mode (no model configured): intent matching over the last user turn, in Indonesian and
 * English, answered from the same tools as the model path with the caller's real figures. A short
 * follow-up without a topic of its own ("yang bulan lalu?") keeps the topic of the turn before it.
 */
type Intent = "tagihan" | "syarat_surat" | "surat" | "pengaduan" | "tamu" | "musyawarah" | "info";

const INTENTS: [Intent, RegExp][] = [
  ["tagihan", /\b(tagihan|iuran|bayar|pembayaran|tunggakan|dues|bills?|pay(ment)?|fees?|owe)\b/],
  [
    "syarat_surat",
    /\b(syarat|persyaratan|jenis surat|macam surat|perlu apa|butuh apa|requirements?|what do i need|kinds? of letters?|types? of letters?)\b/,
  ],
  ["surat", /\b(surat|letters?|pengantar|domisili|sktm)\b/],
  ["pengaduan", /\b(pengaduan|aduan|keluhan|komplain|lapor(an)?|complaints?|report)\b/],
  ["tamu", /\b(tamu|pengunjung|visitors?|guests?)\b/],
  ["musyawarah", /\b(musyawarah|voting|vote|polling|polls?|pemungutan suara|pemilihan)\b/],
  [
    "info",
    /\b(jam|aturan|peraturan|tata tertib|agenda|jadwal|kegiatan|pengurus|ketua|sekretaris|bendahara|rules?|hours?|schedule|officers?|events?)\b/,
  ],
];

const FOLLOW_UP =
  /^(dan |lalu |terus |kalau |kalo |bagaimana dengan |gimana |yang |and |what about |how about )|\b(bulan lalu|sebelumnya|last month|previous)\b/;
const EN = /\b(what|how|my|is|are|the|show|do|does|when|which|can|i|any|have|pending|status)\b/g;
const ID = /\b(apa|bagaimana|berapa|saya|aku|yang|sudah|belum|ada|kapan|mana|tolong|gimana|dong|ya|bisa)\b/g;

function languageOf(text: string): Lang {
  const en = text.match(EN)?.length ?? 0;
  const id = text.match(ID)?.length ?? 0;
  return en > id ? "en" : "id";
}

function intentsOf(text: string): Intent[] {
  const found = INTENTS.filter(([, re]) => re.test(text)).map(([intent]) => intent);
  // "syarat surat domisili" is about requirements, not the caller's own letters.
  return found.includes("syarat_surat") ? found.filter((i) => i !== "surat") : found;
}

/** The intents of the last user turn, or of the previous user turn when the last is a bare follow-up. */
export function detect(messages: readonly Turn[]): { intents: Intent[]; text: string; lang: Lang } {
  const users = messages.filter((m) => m.role === "user").map((m) => m.content.toLowerCase());
  const text = users.at(-1) ?? "";
  const lang = languageOf(text);
  let intents = intentsOf(text);
  if (intents.length === 0 && FOLLOW_UP.test(text)) {
    for (const earlier of users.slice(0, -1).reverse()) {
      intents = intentsOf(earlier);
      if (intents.length > 0) {
        break;
      }
    }
  }
  return { intents, text, lang };
}

function help(lang: Lang): string {
  return t(
    lang,
    [
      "Maaf, saya belum memahami pertanyaan itu. Saya bisa menjawab tentang:",
      '- tagihan iuran Anda ("tagihan saya")',
      '- status surat Anda dan syarat tiap jenis surat ("status surat", "syarat surat domisili")',
      '- pengaduan Anda ("status pengaduan")',
      '- tamu yang Anda daftarkan ("tamu saya")',
      '- musyawarah yang sedang dibuka ("musyawarah aktif")',
      '- pengurus, aturan, jam layanan dan agenda RT ("aturan RT", "siapa pengurus")',
    ].join("\n"),
    [
      "Sorry, I did not understand that. I can answer about:",
      '- your dues ("my bills")',
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
  const { intents, text, lang } = detect(messages);
  if (intents.length === 0) {
    return { reply: help(lang), sources: [] };
  }
  const answer: Record<Intent, () => Promise<Part>> = {
    tagihan: () => tagihan(tools, lang, text, now),
    surat: () => surat(tools, lang),
    syarat_surat: () => syaratSurat(tools, lang, text),
    pengaduan: () => pengaduan(tools, lang),
    tamu: () => tamu(tools, lang),
    musyawarah: () => musyawarah(tools, lang),
    info: () => info(tools, lang),
  };
  const parts = await Promise.all(intents.map((intent) => answer[intent]()));
  return { reply: parts.map((p) => p.text).join("\n\n"), sources: parts.flatMap((p) => p.sources) };
}
