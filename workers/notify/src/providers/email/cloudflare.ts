import { EmailMessage } from "cloudflare:email";
import { createMimeMessage, Mailbox } from "mimetext";
import type { EmailPayload } from "../../payloads";
import { deadlinePassed, timedOut } from "../http";
import type { EmailProvider } from "../types";
import { checkHeader, type ParsedMailbox, parseMailbox } from "./address";

// mimetext validates From, Sender and Reply-To as a `Mailbox` instance and To/Cc as one or an array of
// them: a plain string there throws "The value for the header Reply-To is invalid" (issue 42). Every
// address header is therefore built from a parsed mailbox, never from the caller's string.
const mailbox = (parsed: ParsedMailbox, type: "From" | "To" | "Cc") => new Mailbox(parsed, { type });

/** The raw RFC 5322 message, or throws (AddressError, mimetext's own errors) for content it refuses. */
export function buildMime(email: EmailPayload & { from: string; messageId: string }): {
  from: string;
  to: string;
  raw: string;
} {
  const from = parseMailbox(email.from);
  const to = parseMailbox(email.to);
  const mime = createMimeMessage();
  mime.setSender(from);
  mime.setRecipient(to);
  mime.setSubject(email.subject.replace(/[\r\n]+/g, " "));
  // Our log id as Message-ID lets a bounce or reply be traced back to the delivery log.
  mime.setHeader("Message-ID", `<${email.messageId}@${from.addr.split("@")[1] ?? "warga.local"}>`);
  if (email.replyTo) {
    mime.setHeader("Reply-To", mailbox(parseMailbox(email.replyTo), "From"));
  }
  for (const [name, value] of Object.entries(email.headers ?? {})) {
    checkHeader(name, value);
    mime.setHeader(name, value);
  }
  if (email.text !== undefined) {
    mime.addMessage({ contentType: "text/plain", data: email.text });
  }
  if (email.html !== undefined) {
    mime.addMessage({ contentType: "text/html", data: email.html });
  }
  return { from: from.addr, to: to.addr, raw: mime.asRaw() };
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
      let message: ReturnType<typeof buildMime>;
      try {
        message = buildMime(email);
      } catch (err) {
        // The same payload would be refused the same way on every attempt: failed, not retried.
        const reason = err instanceof Error ? err.message : String(err);
        return { ok: false, retryable: false, error: `message not built: ${reason}` };
      }
      try {
        const result = await Promise.race([
          binding.send(new EmailMessage(message.from, message.to, message.raw)),
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
