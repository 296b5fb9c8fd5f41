import { ulid } from "ulidx";
import { toMsisdn } from "../../core/phone";
import type { SendResult, WhatsAppFallback } from "./types";

type FetchLike = (input: Request | string, init?: RequestInit) => Promise<Response>;

function fill(message: string, variables: Record<string, string> = {}): string {
  return message.replace(
    /\{\{\s*([A-Za-z_][A-Za-z0-9_]*)\s*\}\}/g,
    (_, name: string) => variables[name] ?? "",
  );
}

// Local development only: no queue, no retry, no log. One gateway call per recipient, in order.
export async function sendDirect(
  gateway: WhatsAppFallback,
  fetchFn: FetchLike,
  recipients: { to: string; variables?: Record<string, string> }[],
  message: string,
): Promise<SendResult> {
  const messageIds: string[] = [];
  for (const recipient of recipients) {
    const form = new FormData();
    form.set("target", toMsisdn(recipient.to) ?? recipient.to);
    form.set("message", fill(message, recipient.variables));
    form.set("countryCode", "62");
    const response = await fetchFn(gateway.url, {
      method: "POST",
      headers: { authorization: gateway.token },
      body: form,
    });
    const answer = (await response.json().catch(() => undefined)) as
      | { status?: boolean; reason?: string }
      | undefined;
    if (!response.ok || answer?.status !== true) {
      throw new Error(`WhatsApp gateway refused the fallback message: ${answer?.reason ?? response.status}`);
    }
    messageIds.push(`direct-${ulid()}`);
  }
  return { messageIds, replayed: false, via: "direct" };
}
