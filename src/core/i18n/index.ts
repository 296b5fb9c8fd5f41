import type { CoreErrorCode, ErrorCode } from "../errors";
import { CORE_TITLES_ID } from "./core-titles";
import { indonesianFieldMessage } from "./field-messages";

/**
 * The two languages problems and pages speak (issue 30 item 3, ADR 0034): `Accept-Language` picks `id` or
 * `en`; Indonesian when it asks for neither (issue 42: the spec's users are Indonesian, and the emails that
 * lead to the API are). Only `title`, `detail` and field messages change: `code` never does.
 */
export type Language = "id" | "en";

/** The language of a caller that names neither `id` nor `en`: the API's problems, its pages, notify's problems. */
export const DEFAULT_LANGUAGE: Language = "id";

/**
 * The best of `id` and `en` by the header's q-values (RFC 9110 §12.5.4): `id`, `id-ID` (and the old
 * `in`) are Indonesian, `en-*` English; ties go to the one listed first. A header that names neither
 * (none, `*`, `fr`) leaves `fallback`, unless it refuses the fallback (`id;q=0`) and so leaves the other.
 */
export function pickLanguage(
  header: string | null | undefined,
  fallback: Language = DEFAULT_LANGUAGE,
): Language {
  if (!header) {
    return fallback;
  }
  let best: { lang: Language; q: number } | null = null;
  const refused = new Set<Language>();
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
    if (q === 0) {
      refused.add(lang);
    } else if (Number.isFinite(q) && q > 0 && (!best || q > best.q)) {
      best = { lang, q };
    }
  }
  if (best) {
    return best.lang;
  }
  const other: Language = fallback === "id" ? "en" : "id";
  return refused.has(fallback) && !refused.has(other) ? other : fallback;
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

/**
 * A problem's English title: the status phrase (RFC 9110). Both Workers use it, so one code has one title
 * in the API and in the notification service.
 */
export const STATUS_TITLES_EN: Readonly<Record<number, string>> = {
  400: "Bad Request",
  401: "Unauthorized",
  402: "Payment Required",
  403: "Forbidden",
  404: "Not Found",
  405: "Method Not Allowed",
  409: "Conflict",
  410: "Gone",
  412: "Precondition Failed",
  413: "Content Too Large",
  415: "Unsupported Media Type",
  422: "Unprocessable Content",
  429: "Too Many Requests",
  500: "Internal Server Error",
  503: "Service Unavailable",
};

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
export function problemText<C extends string = ErrorCode>(
  lang: Language,
  status: number,
  code: C,
  english: { title: string; detail: string },
  titleOf: (code: C) => string | undefined = indonesianTitle as (code: C) => string | undefined,
): { title: string; detail: string } {
  if (lang === "en") {
    return english;
  }
  const title = titleOf(code) ?? STATUS_TITLES_ID[status] ?? "Kesalahan";
  return { title, detail: `${title}.` };
}

/** A field message in `lang`: the code's English, or its line in the catalogue (./field-messages.ts). */
export function fieldMessage(lang: Language, message: string): string {
  return lang === "id" ? indonesianFieldMessage(message) : message;
}
