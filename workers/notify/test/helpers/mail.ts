import PostalMime from "postal-mime";
import { z } from "zod";
import type { EmailConfig } from "../../src/env";
import { type FakeHandler, json } from "./fakeFetch";

/** What a recipient's mail client would read, the same whichever provider carried the message. */
export interface Delivered {
  from: { address: string; name: string };
  to: string[];
  replyTo: string[];
  subject: string;
  text: string | undefined;
  html: string | undefined;
}

/**
 * A stand-in for the `send_email` binding that keeps what it was given: the message itself is built by
 * the provider with the real mimetext, and read back here with postal-mime as a relay would.
 */
export function captureBinding() {
  const raws: string[] = [];
  const binding = {
    async send(message: EmailMessage & { raw?: unknown }) {
      // workerd keeps the raw message under this key (a string or a stream).
      const raw = (message as unknown as Record<string, unknown>)["EmailMessage::raw"] ?? message.raw;
      raws.push(typeof raw === "string" ? raw : await new Response(raw as ReadableStream).text());
      return { messageId: `cf-${raws.length}` };
    },
  } as unknown as SendEmail;
  return { binding, raws };
}

export async function readMime(raw: string): Promise<Delivered> {
  const parsed = await PostalMime.parse(raw);
  return {
    from: { address: parsed.from?.address ?? "", name: parsed.from?.name ?? "" },
    to: (parsed.to ?? []).map((a) => a.address ?? ""),
    replyTo: (parsed.replyTo ?? []).map((a) => a.address ?? ""),
    subject: parsed.subject ?? "",
    text: parsed.text,
    html: parsed.html,
  };
}

/** Resend's documented POST /emails body (api-reference/emails/send-email). */
export const ResendBody = z.strictObject({
  from: z.string().min(3),
  to: z.union([z.string(), z.array(z.string()).min(1).max(50)]),
  subject: z.string().min(1),
  html: z.string().optional(),
  text: z.string().optional(),
  reply_to: z.union([z.string(), z.array(z.string())]).optional(),
  cc: z.union([z.string(), z.array(z.string())]).optional(),
  bcc: z.union([z.string(), z.array(z.string())]).optional(),
  headers: z.record(z.string(), z.string()).optional(),
});

const list = (v: string | string[] | undefined) => (v === undefined ? [] : Array.isArray(v) ? v : [v]);

/**
 * Reads a Resend request the way Resend writes the message: its address fields become the From, To and
 * Reply-To headers, so they are checked by parsing exactly those headers with postal-mime.
 */
export async function readResend(body: unknown): Promise<Delivered> {
  const request = ResendBody.parse(body);
  const headerBlock = [
    `From: ${request.from}`,
    `To: ${list(request.to).join(", ")}`,
    ...(request.reply_to ? [`Reply-To: ${list(request.reply_to).join(", ")}`] : []),
    "Subject: -",
    "",
    "",
  ].join("\r\n");
  const headers = await readMime(headerBlock);
  return { ...headers, subject: request.subject, text: request.text, html: request.html };
}

/** A Resend fake that keeps every request body and accepts it with the documented answer. */
export function resendCapture() {
  const bodies: unknown[] = [];
  const handler: FakeHandler = (call) => {
    bodies.push(JSON.parse(call.text));
    return json({ id: `re-${bodies.length}` });
  };
  return { bodies, handler };
}

/** Every email provider the service can be configured with: a new one fails to compile until listed. */
export const EMAIL_PROVIDERS = ["cloudflare", "http"] as const satisfies readonly EmailConfig["provider"][];
type Missing = Exclude<EmailConfig["provider"], (typeof EMAIL_PROVIDERS)[number]>;
export const everyProviderListed: [Missing] extends [never] ? true : never = true;
