import { z } from "zod";
import {
  fieldMessage,
  type Language,
  pickLanguage,
  problemText,
  STATUS_TITLES_EN,
} from "../../../../src/core/i18n";
import { CORE_TITLES_ID } from "../../../../src/core/i18n/core-titles";
import { type ErrorCode, type FieldError, NOTIFY_ERROR_CODES, type OWN_ERROR_CODES } from "../errors";

export const PROBLEM_CONTENT_TYPE = "application/problem+json";

// The same base as the main API's problems (src/core/http/problem.ts; ADR 0002), repeated because this
// Worker does not import the API's HTTP layer.
export const PROBLEM_TYPE_BASE = "https://warga.id/problems/";

export const Problem = z.object({
  type: z.string(),
  title: z.string(),
  status: z.number().int(),
  detail: z.string(),
  code: z.enum(NOTIFY_ERROR_CODES),
  requestId: z.string().optional(),
  errors: z.array(z.object({ field: z.string(), message: z.string() })).optional(),
});

/** The Indonesian titles of the codes only this service answers (the shared ones are the API's own). */
const OWN_TITLES_ID: Readonly<Record<(typeof OWN_ERROR_CODES)[number], string>> = {
  template_not_found: "Templat tidak ditemukan",
  message_not_found: "Pesan tidak ditemukan",
  device_not_found: "Perangkat tidak ditemukan",
  missing_template_variables: "Data yang dibutuhkan templat belum lengkap",
  message_not_dead: "Hanya pesan yang gagal terkirim yang dapat dikirim ulang",
  channel_unconfigured: "Saluran pengiriman ini belum diatur",
  service_unconfigured: "Layanan notifikasi belum diatur dengan benar",
};

export function indonesianTitle(code: ErrorCode): string {
  return code in OWN_TITLES_ID
    ? OWN_TITLES_ID[code as keyof typeof OWN_TITLES_ID]
    : CORE_TITLES_ID[code as keyof typeof CORE_TITLES_ID];
}

/**
 * The caller's language from Accept-Language, Indonesian when it names neither (issue 42 item 5). The API's
 * own calls send none, so what an operator reads in its logs is Indonesian too.
 */
export function languageOf(acceptLanguage: string | null | undefined): Language {
  return pickLanguage(acceptLanguage, "id");
}

export interface ProblemInit {
  status: number;
  code: ErrorCode;
  /** The English detail of the thrower; in Indonesian the code's title says it (as the API does). */
  detail: string;
  lang: Language;
  requestId?: string;
  errors?: FieldError[];
}

/** RFC 9457 problem+json in the API's shape: `{ type, title, status, detail, code, requestId?, errors? }`. */
export function problemResponse(init: ProblemInit): Response {
  const english = { title: STATUS_TITLES_EN[init.status] ?? "Error", detail: init.detail };
  const text = problemText(init.lang, init.status, init.code, english, indonesianTitle);
  const body = {
    type: `${PROBLEM_TYPE_BASE}${init.code}`,
    title: text.title,
    status: init.status,
    detail: text.detail,
    code: init.code,
    ...(init.requestId ? { requestId: init.requestId } : {}),
    ...(init.errors?.length
      ? { errors: init.errors.map((e) => ({ ...e, message: fieldMessage(init.lang, e.message) })) }
      : {}),
  };
  const headers: Record<string, string> = {
    "content-type": PROBLEM_CONTENT_TYPE,
    "content-language": init.lang,
    vary: "Accept-Language",
  };
  if (init.requestId) {
    headers["x-request-id"] = init.requestId;
  }
  return new Response(JSON.stringify(body), { status: init.status, headers });
}

const descriptions: Record<number, string> = {
  400: "Invalid input",
  401: "Missing or wrong X-Service-Internal-Key",
  404: "Not found",
  409: "State conflict",
  422: "The same idempotency key with another request",
  415: "Body is not application/json",
  503: "Channel or queue unavailable",
};

// Declared once and spread into every route so /openapi.json documents our error shape, not chanfana's.
export function problemResponses(...statuses: number[]) {
  return Object.fromEntries(
    [401, ...statuses].map((status) => [
      String(status),
      {
        description: descriptions[status] ?? "Error",
        content: { [PROBLEM_CONTENT_TYPE]: { schema: Problem } },
      },
    ]),
  );
}
