import { guardedFetch, isTransientStatus, parseJson, readSnippet, retryAfterSeconds } from "../http";
import type { FetchFn, WhatsAppProvider } from "../types";

interface GatewayAnswer {
  status?: boolean;
  reason?: string;
  detail?: string;
  id?: (string | number)[] | string | number;
}

// Reasons about the recipient, not about us: sending again will not help.
const permanentReason =
  /target invalid|invalid target|not (a )?valid (number|target)|not registered|no whatsapp/i;

// A Fonnte-shaped gateway: POST {url} with `Authorization: <token>` and form fields target, message,
// countryCode. It answers HTTP 200 for both outcomes and puts the verdict in `status` (true/false + reason).
// It takes no idempotency key, so a timed-out send is not repeated automatically (ADR 0031); a 504 from the
// gateway itself (its upstream timed out before it queued anything) is retried like any 5xx.
export function createGatewayProvider(
  config: { url: string; token: string },
  fetchFn: FetchFn,
): WhatsAppProvider {
  return {
    name: "whatsapp-gateway",
    idempotent: false,
    async send(message) {
      const form = new FormData();
      form.set("target", message.to);
      form.set("message", message.message);
      form.set("countryCode", "62");
      const result = await guardedFetch(fetchFn, config.url, {
        method: "POST",
        headers: { authorization: config.token },
        body: form,
        signal: message.signal,
      });
      if ("failure" in result) {
        return result.failure;
      }
      const { response } = result;
      const text = await readSnippet(response);
      if (!response.ok) {
        return {
          ok: false,
          retryable: isTransientStatus(response.status),
          status: response.status,
          response: text,
          retryAfterSeconds: retryAfterSeconds(response),
          error: `gateway answered ${response.status}`,
        };
      }
      const answer = parseJson(text) as GatewayAnswer | undefined;
      if (answer?.status === true) {
        const id = Array.isArray(answer.id) ? answer.id[0] : answer.id;
        return {
          ok: true,
          status: response.status,
          response: text,
          providerMessageId: id === undefined ? undefined : String(id),
        };
      }
      const reason = answer?.reason ?? "unreadable gateway answer";
      return {
        ok: false,
        retryable: !permanentReason.test(reason),
        status: response.status,
        response: text,
        error: `gateway refused: ${reason}`,
      };
    },
  };
}
