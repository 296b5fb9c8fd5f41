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
import { detect, type Intent, letterKindsOf } from "./intents";
import { periodAsked } from "./periods";
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
