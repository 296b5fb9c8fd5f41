import { jakartaDate, type Language as Lang, periodName, rupiah } from "../../core/format";
import { jakartaDay } from "../../core/time";
import type { DuesBill } from "./dues";
import type { Source } from "./schemas";
import type { toolRunner } from "./tools";

/**
 * The built-in mode's answer to each intent (builtin.ts picks the intents), from the same tools as the
 * model path with the caller's real figures, in the caller's language.
 */
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

/** The app's screen of the caller's bills, where each is paid (the web app's `/iuran`). */
export const PAY_PATH = "/iuran";

const howToPay = (lang: Lang) =>
  t(
    lang,
    `Cara membayar: buka menu Iuran (${PAY_PATH}), pilih tagihannya lalu tekan Bayar untuk membayar online. Bisa juga tunai atau transfer ke bendahara; setelah dicatat bendahara, kuitansinya muncul di menu Iuran.`,
    `How to pay: open Dues (${PAY_PATH}), choose the bill and press Pay to pay online. You can also pay the treasurer in cash or by transfer; once recorded, the receipt appears under Dues.`,
  );

const billLine = (b: DuesBill, lang: Lang) =>
  `- ${periodName(b.period, lang)}: ${rupiah(b.amount)}, ${t(lang, "belum dibayar", "not paid yet")}`;

/**
 * The caller's unpaid bills (the tool lists only those): this month's apart from the arrears of earlier
 * months, or the one month asked about; with the way to pay and its link whenever something is owed.
 */
export async function tagihan(
  tools: Tools,
  lang: Lang,
  asked: { period: string | null; howToPay: boolean; now: Date },
): Promise<Part> {
  const { data } = await tools.run("tagihan_saya");
  if (!data.available) {
    return plain(
      lang,
      "Informasi tagihan iuran belum tersedia di sistem ini. Silakan tanyakan langsung kepada bendahara.",
      "Dues information is not available in this system yet. Please ask your treasurer.",
    );
  }
  const unpaid: DuesBill[] = data.bills.filter((b) => !b.paid);
  const chosen = asked.period ? unpaid.filter((b) => b.period === asked.period) : unpaid;
  const sources: Source[] = chosen.map((b) => ({ kind: "tagihan", id: b.id }));
  const lines: string[] = [];
  if (asked.period && chosen.length === 0) {
    const month = periodName(asked.period, lang);
    lines.push(
      t(
        lang,
        `Tidak ada tagihan bulan ${month} yang belum dibayar (sudah lunas atau belum diterbitkan).`,
        `There is no unpaid bill for ${month} (paid, or not issued).`,
      ),
    );
  } else if (chosen.length === 0) {
    lines.push(
      t(lang, "Tidak ada tagihan yang belum dibayar. Terima kasih!", "You have no unpaid bills. Thank you!"),
    );
  } else if (asked.period) {
    lines.push(
      ...chosen.map(
        (b) =>
          `${t(lang, "Tagihan Anda bulan", "Your bill for")} ${periodName(b.period, lang)}: ${rupiah(b.amount)}, ${t(lang, "belum dibayar", "not paid yet")}.`,
      ),
    );
  } else {
    const current = jakartaDay(asked.now).slice(0, 7);
    const thisMonth = chosen.filter((b) => b.period >= current);
    const arrears = chosen.filter((b) => b.period < current);
    if (thisMonth.length > 0) {
      lines.push(
        t(lang, "Tagihan bulan ini:", "This month's bill:"),
        ...thisMonth.map((b) => billLine(b, lang)),
      );
    }
    if (arrears.length > 0) {
      lines.push(
        t(lang, "Tunggakan bulan sebelumnya:", "Arrears from earlier months:"),
        ...arrears.map((b) => billLine(b, lang)),
      );
    }
    if (chosen.length > 1) {
      lines.push(
        `${t(lang, "Total belum dibayar", "Total unpaid")}: ${rupiah(chosen.reduce((n, b) => n + b.amount, 0))}`,
      );
    }
  }
  if (asked.howToPay) {
    lines.push(howToPay(lang));
  } else if (chosen.length > 0) {
    lines.push(t(lang, `Bayar lewat menu Iuran: ${PAY_PATH}`, `Pay under Dues: ${PAY_PATH}`));
  }
  return { text: lines.join("\n"), sources };
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

/** What each kind of letter needs: the kinds named (`LETTER_KINDS` codes), or the list of every kind. */
export async function syaratSurat(tools: Tools, lang: Lang, codes: readonly string[]): Promise<Part> {
  const { data } = await tools.run("jenis_surat");
  if (!data.available) {
    return suratOff(lang);
  }
  const named = data.types.filter((j) => codes.includes(j.code));
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
        "Sebutkan jenisnya untuk melihat isian yang dibutuhkan. Ajukan lewat menu Surat (/surat).",
        "Name one to see the fields it needs. Request it in the Letters menu (/surat).",
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
  lines.push(
    t(
      lang,
      "Untuk pengaduan baru, buat lewat menu Pengaduan (/aspirasi).",
      "For a new complaint, file it in the Complaints menu (/aspirasi).",
    ),
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
