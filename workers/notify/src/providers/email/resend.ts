import { guardedFetch, httpFailure, parseJson, readSnippet } from "../http";
import type { EmailProvider, FetchFn } from "../types";

// Resend's POST /emails: JSON { from, to[], subject, html, text, reply_to, headers }, Bearer API key,
// answers 200 { id }. Its Idempotency-Key header makes a resend after a lost response a no-op.
export function createResendProvider(
  config: { url: string; apiKey: string },
  fetchFn: FetchFn,
): EmailProvider {
  return {
    name: "resend",
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
      });
      if ("failure" in result) {
        return result.failure;
      }
      const { response } = result;
      if (!response.ok) {
        return httpFailure(response, `email API answered ${response.status}`);
      }
      const text = await readSnippet(response);
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
