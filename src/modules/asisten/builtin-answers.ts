import { jakartaDate, type Language as Lang, periodName, rupiah } from "../../core/format";
import { jakartaDay } from "../../core/time";
import type { DuesBill } from "./dues";
import type { Source } from "./schemas";
import type { toolRunner } from "./tools";

/**
 * The built-in mode's answer to each intent (builtin.ts picks the intents), from the same tools as the
 * model path with the caller's real figures, in the caller's language.
 */
function previousPeriod(now: Date): string {
  const [year, month] = jakartaDay(now).split("-").map(Number) as [number, number];
  return month === 1 ? `${year - 1}-12` : `${year}-${String(month - 1).padStart(2, "0")}`;
}

const when = (iso: string, lang: Lang) => jakartaDate(iso, lang);

const LETTER_STATUS: Record<string, Record<Lang, string>> = {
  diajukan: { id: "diajukan, menunggu diproses pengurus", en: "submitted, waiting for the staff" },
  diproses: { id: "sedang diproses", en: "being processed" },
  perlu_perbaikan: { id: "perlu perbaikan dari Anda", en: "needs a correction from you" },
  selesai: { id: "selesai", en: "finished" },
  ditolak: { id: "ditolak", en: "rejected" },
  dibatalkan: { id: "dibatalkan", en: "cancelled" },
};
const COMPLAINT_STATUS: Record<string, Record<Lang, string>> = {
  baru: { id: "baru diterima", en: "received" },
  diproses: { id: "sedang ditangani", en: "being handled" },
  selesai: { id: "selesai", en: "resolved" },
  ditolak: { id: "ditolak", en: "rejected" },
};
const GUEST_STATUS: Record<string, Record<Lang, string>> = {
  menunggu: { id: "menunggu persetujuan", en: "awaiting approval" },
  disetujui: { id: "disetujui", en: "approved" },
  ditolak: { id: "ditolak", en: "rejected" },
};
const ROLE: Record<string, Record<Lang, string>> = {
  admin: { id: "Ketua", en: "Head" },
  sekretaris: { id: "Sekretaris", en: "Secretary" },
  bendahara: { id: "Bendahara", en: "Treasurer" },
};

export const t = (lang: Lang, id: string, en: string) => (lang === "en" ? en : id);
/** An answer that cites nothing (a module switched off, nothing to show). */
const plain = (lang: Lang, id: string, en: string): Part => ({ text: t(lang, id, en), sources: [] });
const suratOff = (lang: Lang) =>
  plain(lang, "Layanan surat tidak aktif di RT/RW Anda.", "Letters are switched off in your community.");

export type Tools = ReturnType<typeof toolRunner>;
export interface Part {
  text: string;
  sources: Source[];
}

export async function tagihan(tools: Tools, lang: Lang, text: string, now: Date): Promise<Part> {
  const { data } = await tools.run("tagihan_saya");
  if (!data.available) {
    return plain(
      lang,
      "Informasi tagihan iuran belum tersedia di sistem ini. Silakan tanyakan langsung kepada bendahara.",
      "Dues information is not available in this system yet. Please ask your treasurer.",
    );
  }
  const bills: DuesBill[] = data.bills;
  const wantsPrevious = /\b(bulan lalu|sebelumnya|last month|previous)\b/.test(text);
  const chosen = wantsPrevious
    ? bills.filter((b) => b.period === previousPeriod(now))
    : bills.filter((b) => !b.paid);
  if (chosen.length === 0) {
    return {
      text: wantsPrevious
        ? t(lang, "Tidak ada tagihan untuk bulan lalu.", "There is no bill for last month.")
        : t(
            lang,
            "Tidak ada tagihan yang belum dibayar. Terima kasih!",
            "You have no unpaid bills. Thank you!",
          ),
      sources: [],
    };
  }
  const lines = chosen.map(
    (b) =>
      `${t(lang, "Tagihan Anda bulan", "Your bill for")} ${periodName(b.period, lang)}: ${rupiah(b.amount)}, ${
        b.paid ? t(lang, "sudah dibayar", "paid") : t(lang, "belum dibayar", "not paid yet")
      }`,
  );
  const unpaid = chosen.filter((b) => !b.paid);
  if (unpaid.length > 1) {
    lines.push(
      `${t(lang, "Total belum dibayar", "Total unpaid")}: ${rupiah(unpaid.reduce((n, b) => n + b.amount, 0))}`,
    );
  }
  return { text: lines.join("\n"), sources: chosen.map((b) => ({ kind: "tagihan", id: b.id })) };
}

export async function surat(tools: Tools, lang: Lang): Promise<Part> {
  const { data } = await tools.run("surat_saya");
  if (!data.available) {
    return suratOff(lang);
  }
  const active = data.letters.filter((l) => l.active);
  const shown = active.length > 0 ? active : data.letters.slice(0, 3);
  if (shown.length === 0) {
    return {
      text: t(
        lang,
        'Anda belum pernah mengajukan surat. Ajukan lewat menu Surat; tanyakan "syarat surat" untuk melihat jenisnya.',
        'You have not requested any letter yet. Request one in the Letters menu; ask "letter requirements" to see the types.',
      ),
      sources: [],
    };
  }
  const head =
    active.length > 0
      ? t(
          lang,
          `Anda punya ${active.length} surat yang masih berjalan:`,
          `You have ${active.length} letter(s) in progress:`,
        )
      : t(
          lang,
          "Tidak ada surat yang sedang berjalan. Surat terakhir Anda:",
          "No letter is in progress. Your latest letters:",
        );
  const lines = shown.map((l) => {
    const status = LETTER_STATUS[l.status]?.[lang] ?? l.status;
    const extra = [
      l.nomorSurat ? `${t(lang, "nomor", "number")} ${l.nomorSurat}` : "",
      l.pdfTersedia ? t(lang, "PDF bisa diunduh", "PDF ready to download") : "",
      l.catatanPengurus ? `${t(lang, "catatan pengurus", "staff note")}: ${l.catatanPengurus}` : "",
    ].filter(Boolean);
    return `- ${l.jenis} (${l.keperluan}), ${t(lang, "diajukan", "submitted")} ${when(l.diajukan, lang)}: ${status}${extra.length ? `; ${extra.join("; ")}` : ""}`;
  });
  return { text: [head, ...lines].join("\n"), sources: shown.map((l) => ({ kind: "surat", id: l.id })) };
}

export async function syaratSurat(tools: Tools, lang: Lang, text: string): Promise<Part> {
  const { data } = await tools.run("jenis_surat");
  if (!data.available) {
    return suratOff(lang);
  }
  const named = data.types.filter((j) =>
    j.name
      .toLowerCase()
      .replace(/^surat (keterangan |pengantar )?/, "")
      .split(/[\s/]+/)
      .some((word) => word.length > 2 && text.includes(word)),
  );
  if (named.length > 0) {
    const lines = named.slice(0, 3).map((j) => {
      const fields = j.isian.map((f) => `${f.label}${f.wajib ? "" : t(lang, " (opsional)", " (optional)")}`);
      return `${j.name}: ${j.description}\n${t(lang, "Isian", "Fields")}: ${fields.length ? fields.join(", ") : t(lang, "tidak ada isian tambahan", "no extra fields")}.`;
    });
    lines.push(t(lang, "Ajukan lewat menu Surat.", "Request it in the Letters menu."));
    return {
      text: lines.join("\n"),
      sources: named.slice(0, 3).map((j) => ({ kind: "jenis_surat", id: j.code })),
    };
  }
  return {
    text: [
      t(
        lang,
        `Ada ${data.types.length} jenis surat yang bisa diajukan:`,
        `There are ${data.types.length} kinds of letter you can request:`,
      ),
      ...data.types.map((j) => `- ${j.name}`),
      t(
        lang,
        "Sebutkan jenisnya untuk melihat isian yang dibutuhkan.",
        "Name one to see the fields it needs.",
      ),
    ].join("\n"),
    sources: data.types.map((j) => ({ kind: "jenis_surat", id: j.code })),
  };
}

export async function pengaduan(tools: Tools, lang: Lang): Promise<Part> {
  const { data } = await tools.run("pengaduan_saya");
  const open = data.complaints.filter((c) => c.status === "baru" || c.status === "diproses");
  const shown = open.length > 0 ? open : data.complaints.slice(0, 3);
  if (shown.length === 0) {
    return plain(
      lang,
      "Anda belum pernah membuat pengaduan. Buat lewat menu Pengaduan.",
      "You have not filed any complaint. File one in the Complaints menu.",
    );
  }
  const head =
    open.length > 0
      ? t(
          lang,
          `Pengaduan Anda yang masih terbuka (${open.length}):`,
          `Your open complaints (${open.length}):`,
        )
      : t(
          lang,
          "Tidak ada pengaduan yang masih terbuka. Yang terakhir:",
          "No complaint is open. Your latest:",
        );
  const lines = shown.map(
    (c) => `- "${c.judul}" (${when(c.dibuat, lang)}): ${COMPLAINT_STATUS[c.status]?.[lang] ?? c.status}`,
  );
  return { text: [head, ...lines].join("\n"), sources: shown.map((c) => ({ kind: "pengaduan", id: c.id })) };
}

export async function tamu(tools: Tools, lang: Lang): Promise<Part> {
  const { data } = await tools.run("tamu_saya");
  if (!data.available) {
    return plain(
      lang,
      "Buku tamu tidak aktif di RT/RW Anda.",
      "The guest book is switched off in your community.",
    );
  }
  const shown = data.guests.slice(0, 5);
  if (shown.length === 0) {
    return plain(
      lang,
      "Anda belum mendaftarkan tamu. Daftarkan lewat menu Tamu.",
      "You have not registered any guest. Register one in the Guests menu.",
    );
  }
  const lines = shown.map((g) => {
    const where = g.sudahKeluar
      ? t(lang, "sudah keluar", "has left")
      : g.sudahMasuk
        ? t(lang, "sedang di dalam", "is inside")
        : (GUEST_STATUS[g.status]?.[lang] ?? g.status);
    return `- ${g.nama} (${g.keperluan}), ${when(g.waktuKunjungan, lang)}: ${where}`;
  });
  return {
    text: [t(lang, "Tamu Anda:", "Your guests:"), ...lines].join("\n"),
    sources: shown.map((g) => ({ kind: "tamu", id: g.id })),
  };
}

export async function musyawarah(tools: Tools, lang: Lang): Promise<Part> {
  const { data } = await tools.run("musyawarah_aktif");
  if (!data.available) {
    return plain(lang, "Musyawarah tidak aktif di RT/RW Anda.", "Polls are switched off in your community.");
  }
  if (data.polls.length === 0) {
    return plain(lang, "Tidak ada musyawarah yang sedang dibuka.", "No poll is open right now.");
  }
  const lines = data.polls.map(
    (p) =>
      `- "${p.judul}" ${t(lang, "sampai", "until")} ${when(p.selesai, lang)}: ${
        p.sudahMemilih
          ? t(lang, "Anda sudah memilih", "you have voted")
          : t(lang, "Anda belum memilih", "you have not voted yet")
      }`,
  );
  return {
    text: [t(lang, "Musyawarah yang sedang dibuka:", "Open polls:"), ...lines].join("\n"),
    sources: data.polls.map((p) => ({ kind: "musyawarah", id: p.id })),
  };
}

export async function info(tools: Tools, lang: Lang): Promise<Part> {
  const { data, sources } = await tools.run("info_rt");
  const lines = [`${data.nama} (${data.jenis})`];
  if (data.pengurus.length > 0) {
    lines.push(
      `${t(lang, "Pengurus", "Officers")}: ${data.pengurus.map((o) => `${o.nama} (${ROLE[o.peran]?.[lang] ?? o.peran})`).join(", ")}`,
    );
  }
  if (data.aturan) {
    lines.push(`${t(lang, "Aturan dan jam layanan", "Rules and hours")}:\n${data.aturan}`);
  }
  if (data.agenda) {
    lines.push(`${t(lang, "Agenda", "Agenda")}:\n${data.agenda}`);
  }
  if (!data.aturan && !data.agenda) {
    lines.push(
      t(
        lang,
        "Pengurus belum menuliskan aturan atau agenda.",
        "The staff have not written rules or an agenda yet.",
      ),
    );
  }
  return { text: lines.join("\n"), sources };
}
