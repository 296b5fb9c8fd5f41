import { ApiError, NetworkError } from "../api/client";
import { t } from "../i18n";

/** What to tell the person about a failed request, in their language (the API answers in it too). */
export function problemText(error: unknown): string {
  if (error instanceof ApiError) {
    return error.problem.detail ?? error.problem.title;
  }
  if (error instanceof NetworkError) {
    return t("common.network");
  }
  return t("common.error");
}

/** The API's field errors by field name, to show each one next to its field. */
export function fieldErrors(error: unknown): Record<string, string> {
  const out: Record<string, string> = {};
  if (error instanceof ApiError) {
    for (const e of error.problem.errors ?? []) {
      out[e.field] ??= e.message;
    }
  }
  return out;
}
