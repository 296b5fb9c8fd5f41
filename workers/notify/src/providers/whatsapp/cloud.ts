import { guardedFetch, isTransientStatus, parseJson, readSnippet, retryAfterSeconds } from "../http";
import type { FetchFn, WhatsAppProvider } from "../types";

interface GraphError {
  error?: { message?: string; code?: number; error_subcode?: number; fbtrace_id?: string };
}

// Graph API codes that mean "slow down" or "our side is down"; everything else in 4xx is about the
// recipient or the message (131026 undeliverable, 131047 outside the 24-hour window, 100 bad parameter).
const TRANSIENT_CODES = new Set([1, 2, 4, 80007, 130429, 131000, 131016, 131048, 131056, 133004, 190]);

// WhatsApp Cloud API: POST graph.facebook.com/{version}/{phone-number-id}/messages with a text message;
// answers 200 { messaging_product, contacts, messages: [{ id }] }.
export function createWhatsAppCloudProvider(
  config: { phoneNumberId: string; token: string; apiVersion: string },
  fetchFn: FetchFn,
): WhatsAppProvider {
  const url = `https://graph.facebook.com/${config.apiVersion}/${encodeURIComponent(config.phoneNumberId)}/messages`;
  return {
    name: "whatsapp-cloud",
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
      });
      if ("failure" in result) {
        return result.failure;
      }
      const { response } = result;
      const text = await readSnippet(response);
      const body = parseJson(text) as (GraphError & { messages?: { id?: string }[] }) | undefined;
      if (response.ok) {
        return {
          ok: true,
          status: response.status,
          response: text,
          providerMessageId: body?.messages?.[0]?.id,
        };
      }
      const code = body?.error?.code;
      return {
        ok: false,
        retryable: isTransientStatus(response.status) || (code !== undefined && TRANSIENT_CODES.has(code)),
        status: response.status,
        response: text,
        retryAfterSeconds: retryAfterSeconds(response),
        error:
          `WhatsApp Cloud API ${response.status}${code !== undefined ? ` code ${code}` : ""}: ${body?.error?.message ?? ""}`.trim(),
      };
    },
  };
}
