import type { CoreErrorCode, ErrorCode } from "../errors";
import { CORE_TITLES_ID } from "./core-titles";

/**
 * The two languages problems speak (issue 30 item 3, ADR 0034): `Accept-Language` picks `id` or `en`;
 * English when it asks for neither. Only `title`, `detail` and field messages change: `code` never does.
 */
export type Language = "id" | "en";

/**
 * The best of `id` and `en` by the header's q-values (RFC 9110 §12.5.4): `id`, `id-ID` (and the old
 * `in`) are Indonesian, `en-*` English, `*` leaves English; ties go to the one listed first.
 */
export function pickLanguage(header: string | null | undefined): Language {
  if (!header) {
    return "en";
  }
  let best: { lang: Language; q: number } | null = null;
  for (const part of header.split(",")) {
    const [range = "", ...params] = part.trim().toLowerCase().split(";");
    const primary = range.trim().split("-")[0];
    const lang: Language | null =
      primary === "id" || primary === "in" ? "id" : primary === "en" ? "en" : null;
    if (!lang) {
      continue;
    }
    const qParam = params.map((p) => p.trim()).find((p) => p.startsWith("q="));
    const q = qParam ? Number(qParam.slice(2)) : 1;
    if (Number.isFinite(q) && q > 0 && (!best || q > best.q)) {
      best = { lang, q };
    }
  }
  return best?.lang ?? "en";
}

/** The catalogue: one Indonesian title per code, core's below and each module's from its errors.ts. */
const titlesId = new Map<ErrorCode, string>(Object.entries(CORE_TITLES_ID) as [CoreErrorCode, string][]);

/**
 * A module's Indonesian titles, next to its codes in src/modules/<module>/errors.ts: the record must
 * name every code of the module's list (a missing one fails `tsc`), and test/core/i18n.test.ts checks
 * that every code `/openapi.json` lists has one.
 */
export function defineIndonesianTitles<C extends ErrorCode>(titles: Readonly<Record<C, string>>): void {
  for (const [code, title] of Object.entries(titles) as [C, string][]) {
    titlesId.set(code, title);
  }
}

export function indonesianTitle(code: ErrorCode): string | undefined {
  return titlesId.get(code);
}

/** Status phrases in Indonesian, for a code the catalogue lacks (never in a tested build). */
const STATUS_TITLES_ID: Record<number, string> = {
  400: "Permintaan tidak valid",
  401: "Belum masuk",
  402: "Langganan tidak aktif",
  403: "Tidak diizinkan",
  404: "Tidak ditemukan",
  405: "Metode tidak diizinkan",
  409: "Konflik",
  410: "Sudah tidak tersedia",
  412: "Prasyarat gagal",
  413: "Terlalu besar",
  415: "Jenis media tidak didukung",
  422: "Isi tidak dapat diproses",
  429: "Terlalu banyak permintaan",
  500: "Kesalahan di server",
  503: "Layanan tidak tersedia",
};

/**
 * A problem's title and detail in `lang`. English keeps the status phrase as the title and the thrower's
 * own detail; Indonesian says the code's catalogue sentence as the title, and as the detail (the
 * thrower's English detail may hold specifics that the catalogue does not repeat).
 */
export function problemText(
  lang: Language,
  status: number,
  code: ErrorCode,
  english: { title: string; detail: string },
): { title: string; detail: string } {
  if (lang === "en") {
    return english;
  }
  const title = indonesianTitle(code) ?? STATUS_TITLES_ID[status] ?? "Kesalahan";
  return { title, detail: `${title}.` };
}

/** Field messages that core itself writes, in Indonesian (zod's own come from its `id` locale). */
const FIELD_MESSAGES_ID: Record<string, string> = {
  "must not contain control characters": "tidak boleh berisi karakter kontrol",
  "must be 1 to 255 visible ASCII characters": "harus 1 sampai 255 karakter ASCII yang terlihat",
  "unknown cursor": "bukan kursor yang diberikan daftar ini; mulai lagi tanpa kursor",
};

export function fieldMessage(lang: Language, message: string): string {
  return lang === "id" ? (FIELD_MESSAGES_ID[message] ?? message) : message;
}
