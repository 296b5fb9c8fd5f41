import { EmailMessage } from "cloudflare:email";
import { createMimeMessage } from "mimetext";
import { deadlinePassed, timedOut } from "../http";
import type { EmailProvider } from "../types";

function addressOf(mailbox: string): string {
  const match = /<([^>]+)>/.exec(mailbox);
  return (match?.[1] ?? mailbox).trim();
}

// Errors the platform raises for a recipient or sender it will never accept; anything else may pass later.
const permanent = /not verified|not allowed|invalid|no such|unknown recipient|destination address/i;

// Settles with "aborted" when the signal fires first. The binding takes no signal, so the call itself
// may still complete in the background; we just stop waiting for it.
function untilAborted(signal: AbortSignal): Promise<"aborted"> {
  return new Promise((resolve) => {
    signal.addEventListener("abort", () => resolve("aborted"), { once: true });
  });
}

// Cloudflare's send_email binding takes a raw RFC 5322 message, built here with mimetext. It has no
// idempotency key: a second send of the same row is only recognisable by its Message-ID, so a timed-out
// send is not repeated automatically (ADR 0031).
export function createCloudflareEmailProvider(binding: SendEmail): EmailProvider {
  return {
    name: "cloudflare",
    idempotent: false,
    async send(email) {
      if (email.signal.aborted) {
        return deadlinePassed();
      }
      const from = addressOf(email.from);
      const mime = createMimeMessage();
      mime.setSender(email.from);
      mime.setRecipient(email.to);
      mime.setSubject(email.subject);
      // Our log id as Message-ID lets a bounce or reply be traced back to the delivery log.
      mime.setHeader("Message-ID", `<${email.messageId}@${from.split("@")[1] ?? "warga.local"}>`);
      if (email.replyTo) {
        mime.setHeader("Reply-To", email.replyTo);
      }
      for (const [name, value] of Object.entries(email.headers ?? {})) {
        mime.setHeader(name, value);
      }
      if (email.text !== undefined) {
        mime.addMessage({ contentType: "text/plain", data: email.text });
      }
      if (email.html !== undefined) {
        mime.addMessage({ contentType: "text/html", data: email.html });
      }
      try {
        const result = await Promise.race([
          binding.send(new EmailMessage(from, email.to, mime.asRaw())),
          untilAborted(email.signal),
        ]);
        if (result === "aborted") {
          return timedOut(email.signal);
        }
        return {
          ok: true,
          providerMessageId: result?.messageId,
          response: result ? JSON.stringify(result) : undefined,
        };
      } catch (err) {
        if (email.signal.aborted) {
          return timedOut(email.signal);
        }
        const message = err instanceof Error ? err.message : String(err);
        return { ok: false, retryable: !permanent.test(message), error: `send_email: ${message}` };
      }
    },
  };
}
