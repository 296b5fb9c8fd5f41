import { guardedFetch, isTransientStatus, parseJson, readSnippet, retryAfterSeconds } from "../http";
import type { DeliveryFailure, FetchFn, WhatsAppProvider } from "../types";

interface GraphError {
  error?: { message?: string; code?: number; error_subcode?: number; fbtrace_id?: string };
}

// Cloud API error codes (developers.facebook.com, WhatsApp Cloud API "Error codes") that mean "slow down"
// or "Meta's side is down": 130429 throughput, 131056 pair rate (one business number to one user), 131048
// spam rate limit, 80007 and 4 account and app rate limits, 1/2/131000/131016/133004 unknown or
// unavailable service; 190 is our expired token, which an operator can fix. Everything else in 4xx is
// about the recipient or the message and will be refused again: 131026 undeliverable (not a WhatsApp
// number, old client), 131047 outside the 24-hour window, 131049 held back by Meta for engagement (Meta
// advises against retrying soon), 131030 recipient not allowed, 100 bad parameter.
const TRANSIENT_CODES = new Set([1, 2, 4, 80007, 130429, 131000, 131016, 131048, 131056, 133004, 190]);

export function classifyGraph(status: number, text: string, retryAfter?: number): DeliveryFailure {
  const body = parseJson(text) as GraphError | undefined;
  const code = body?.error?.code;
  return {
    ok: false,
    retryable: isTransientStatus(status) || (code !== undefined && TRANSIENT_CODES.has(code)),
    status,
    response: text,
    retryAfterSeconds: retryAfter,
    error:
      `WhatsApp Cloud API ${status}${code !== undefined ? ` code ${code}` : ""}: ${body?.error?.message ?? ""}`.trim(),
  };
}

// WhatsApp Cloud API: POST graph.facebook.com/{version}/{phone-number-id}/messages with a text message;
// answers 200 { messaging_product, contacts, messages: [{ id }] }. It has no idempotency key and no look-up
// by our id, so a timed-out send is not repeated automatically (ADR 0031).
export function createWhatsAppCloudProvider(
  config: { phoneNumberId: string; token: string; apiVersion: string },
  fetchFn: FetchFn,
): WhatsAppProvider {
  const url = `https://graph.facebook.com/${config.apiVersion}/${encodeURIComponent(config.phoneNumberId)}/messages`;
  return {
    name: "whatsapp-cloud",
    idempotent: false,
    async send(message) {
      const result = await guardedFetch(fetchFn, url, {
        method: "POST",
        headers: { authorization: `Bearer ${config.token}`, "content-type": "application/json" },
        body: JSON.stringify({
          messaging_product: "whatsapp",
          recipient_type: "individual",
          to: message.to,
          type: "text",
          text: { preview_url: false, body: message.message },
        }),
        signal: message.signal,
      });
      if ("failure" in result) {
        return result.failure;
      }
      const { response } = result;
      const text = await readSnippet(response);
      if (response.ok) {
        const body = parseJson(text) as { messages?: { id?: string }[] } | undefined;
        return {
          ok: true,
          status: response.status,
          response: text,
          providerMessageId: body?.messages?.[0]?.id,
        };
      }
      return classifyGraph(response.status, text, retryAfterSeconds(response));
    },
  };
}
