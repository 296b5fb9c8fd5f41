import { guardedFetch, isTransientStatus, parseJson, readSnippet, retryAfterSeconds } from "../http";
import type { DeliveryFailure, EmailProvider, FetchFn } from "../types";
import { checkHeader, formatMailbox, parseMailbox } from "./address";

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
// answers 200 { id }. `from` and `reply_to` are RFC 5322 mailboxes ("Name <addr>") that Resend copies into
// the headers, so they are parsed and re-written by the same rules as the send_email provider's, and a
// value that could break a header is refused here rather than by the provider. Its Idempotency-Key (kept
// 24 hours) makes a resend after a lost answer a replay of the first answer, which is why a timed-out
// call here is simply retried with the same key.
export function createResendProvider(
  config: { url: string; apiKey: string },
  fetchFn: FetchFn,
): EmailProvider {
  return {
    name: "resend",
    idempotent: true,
    async send(email) {
      const body: Record<string, unknown> = {};
      try {
        body.from = formatMailbox(parseMailbox(email.from));
        body.to = [parseMailbox(email.to).addr];
        body.subject = email.subject.replace(/[\r\n]+/g, " ");
        if (email.replyTo) {
          body.reply_to = formatMailbox(parseMailbox(email.replyTo));
        }
        for (const [name, value] of Object.entries(email.headers ?? {})) {
          checkHeader(name, value);
        }
      } catch (err) {
        // The same payload would be refused the same way on every attempt: failed, not retried.
        const reason = err instanceof Error ? err.message : String(err);
        return { ok: false, retryable: false, error: `message not built: ${reason}` };
      }
      if (email.html !== undefined) {
        body.html = email.html;
      }
      if (email.text !== undefined) {
        body.text = email.text;
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
