import type { Email, Header } from "postal-mime";
import PostalMime from "postal-mime";
import { sha256Hex } from "./attachments";
import { FlowedRewriter } from "./flowed";
import { htmlToText } from "./html-to-text";
import { stripQuotedText } from "./strip-quotes";

/**
 * The parsed message. format=flowed text is un-flowed by flowed.ts, not by postal-mime, which
 * joins a quoted line with the unquoted answer below it (RFC 3676 §4.5 never does).
 */
export async function readMessage(stream: ReadableStream<Uint8Array>): Promise<Email> {
  const flowed = new FlowedRewriter();
  const email = await PostalMime.parse(stream.pipeThrough(flowed.stream), {
    attachmentEncoding: "arraybuffer",
  });
  return flowed.apply(email);
}

// Tokens are base64url or hex; clients keep the bracket but may add spaces or change case of TKT.
const TOKEN = /\[\s*TKT\s*:\s*([A-Za-z0-9_-]{22,64})\s*\]/i;

export function findReplyToken(subject: string | undefined): string | null {
  return TOKEN.exec(subject ?? "")?.[1] ?? null;
}

function header(headers: Header[], key: string): string | undefined {
  return headers
    .find((h) => h.key === key)
    ?.value.trim()
    .toLowerCase();
}

/**
 * Why a message comes from a robot (RFC 3834 and the de facto headers), or null. Such mail is
 * dropped without a reject: a bounce to an auto-responder is exactly how two robots loop.
 */
export function robotReason(headers: Header[], envelopeFrom: string): string | null {
  if (envelopeFrom.trim() === "" || /^(?:mailer-daemon|postmaster)@/i.test(envelopeFrom.trim())) {
    return "bounce";
  }
  const autoSubmitted = header(headers, "auto-submitted");
  if (autoSubmitted !== undefined && !/^no\b/.test(autoSubmitted)) {
    return "auto_submitted";
  }
  const precedence = header(headers, "precedence");
  if (precedence !== undefined && /^(?:bulk|junk|list|auto_reply)\b/.test(precedence)) {
    return "precedence";
  }
  for (const key of ["x-autoreply", "x-autorespond"]) {
    const value = header(headers, key);
    if (value !== undefined && !/^(?:no|false)\b/.test(value)) {
      return "x_autoreply";
    }
  }
  if (headers.some((h) => h.key === "list-id" || h.key === "list-unsubscribe")) {
    return "mailing_list";
  }
  return null;
}

/**
 * The Message-ID without angle brackets; when a client sent none, an id derived from the
 * content, so that a redelivery of the same message still maps to the same id.
 */
export async function messageIdentity(email: Email, envelopeFrom: string): Promise<string> {
  const declared = email.messageId?.trim() ?? "";
  const bracketed = /<([^<>\s]+)>/.exec(declared)?.[1];
  const id = (bracketed ?? declared).slice(0, 500);
  if (id.length > 0) {
    return id;
  }
  const digest = await sha256Hex(
    [senderOf(email, envelopeFrom).address, email.date ?? "", email.subject ?? "", email.text ?? ""].join(
      "\n",
    ),
  );
  return `${digest}@derived.ticket-mail.warga.invalid`;
}

export function senderOf(email: Email, envelopeFrom: string): { address: string; name?: string } {
  const from = email.from;
  if (from?.address) {
    return from.name ? { address: from.address, name: from.name } : { address: from.address };
  }
  return { address: envelopeFrom };
}

export type ExtractedReply = {
  text: string;
  source: "text" | "html" | "none";
  keptCids: Set<string>;
  allCids: Set<string>;
};

/**
 * The new text of the reply: from the text/plain part, or from the HTML when there is none.
 * postal-mime 4 leaves `text` undefined for an HTML-only message (test/parse.test.ts pins
 * that), so the HTML is converted here, where the markup still shows what is quoted.
 */
export function extractReply(email: Email): ExtractedReply {
  const html = email.html ? htmlToText(email.html) : null;
  const keptCids = html?.keptCids ?? new Set<string>();
  const allCids = html?.allCids ?? new Set<string>();
  const fromText = email.text ? stripQuotedText(email.text) : "";
  if (fromText.length > 0) {
    return { text: fromText, source: "text", keptCids, allCids };
  }
  // The HTML gets a second chance: its markup can show new text the plain part hides.
  if (html) {
    return { text: stripQuotedText(html.text), source: "html", keptCids, allCids };
  }
  return { text: "", source: "none", keptCids, allCids };
}
