import { guardedFetch, isTransientStatus, parseJson, readSnippet, retryAfterSeconds } from "../http";
import type { DeliveryFailure, EmailProvider, FetchFn } from "../types";

// Resend's documented error names (api-reference/errors and the idempotency-keys guide) whose answer is
// "try again later" although the status alone would say otherwise.
// - 409 concurrent_idempotent_requests: a request with this key is still in progress, typically our own
//   earlier attempt that timed out; it has probably sent. Retrying with the same key gets its answer.
// 409 invalid_idempotent_request (same key, another body) is permanent: the docs call retrying useless.
const RETRYABLE_NAMES = new Set(["concurrent_idempotent_requests"]);

export function classifyResend(status: number, text: string, retryAfter?: number): DeliveryFailure {
  const name = (parseJson(text) as { name?: unknown } | undefined)?.name;
  const named = typeof name === "string" ? name : undefined;
  return {
    ok: false,
    // 429 covers rate_limit_exceeded and the daily/monthly quotas; 5xx application_error and
    // internal_server_error; 401 is our key, which an operator can fix.
    retryable: (named !== undefined && RETRYABLE_NAMES.has(named)) || isTransientStatus(status),
    status,
    response: text,
    retryAfterSeconds: retryAfter,
    error: `email API answered ${status}${named ? ` ${named}` : ""}`,
  };
}

// Resend's POST /emails: JSON { from, to[], subject, html, text, reply_to, headers }, Bearer API key,
// answers 200 { id }. Its Idempotency-Key (kept 24 hours) makes a resend after a lost answer a replay of
// the first answer, which is why a timed-out call here is simply retried with the same key.
export function createResendProvider(
  config: { url: string; apiKey: string },
  fetchFn: FetchFn,
): EmailProvider {
  return {
    name: "resend",
    idempotent: true,
    async send(email) {
      const body: Record<string, unknown> = { from: email.from, to: [email.to], subject: email.subject };
      if (email.html !== undefined) {
        body.html = email.html;
      }
      if (email.text !== undefined) {
        body.text = email.text;
      }
      if (email.replyTo) {
        body.reply_to = email.replyTo;
      }
      if (email.headers && Object.keys(email.headers).length > 0) {
        body.headers = email.headers;
      }
      const result = await guardedFetch(fetchFn, config.url, {
        method: "POST",
        headers: {
          authorization: `Bearer ${config.apiKey}`,
          "content-type": "application/json",
          "idempotency-key": email.messageId,
        },
        body: JSON.stringify(body),
        signal: email.signal,
      });
      if ("failure" in result) {
        return result.failure;
      }
      const { response } = result;
      const text = await readSnippet(response);
      if (!response.ok) {
        return classifyResend(response.status, text, retryAfterSeconds(response));
      }
      const id = (parseJson(text) as { id?: unknown } | undefined)?.id;
      return {
        ok: true,
        status: response.status,
        response: text,
        providerMessageId: typeof id === "string" ? id : undefined,
      };
    },
  };
}
