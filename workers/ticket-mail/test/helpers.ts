import { createExecutionContext, waitOnExecutionContext } from "cloudflare:test";
import { env } from "cloudflare:workers";
import worker from "../src/index";
import type { RecordedRequest } from "./fake-api-shared";

export const ENVELOPE_TO = "balas@support.warga.id";

/** A reply token as the main API issues them (base64url of 16+ random bytes). */
export function newToken(): string {
  // Alphanumeric only, so fixtures can carry it inside an RFC 2047 Q-encoded subject.
  const alphabet = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789";
  const bytes = crypto.getRandomValues(new Uint8Array(32));
  return [...bytes].map((b) => alphabet[b % alphabet.length]).join("");
}

export function unique(): string {
  return crypto.randomUUID().replaceAll("-", "").slice(0, 20);
}

/** Fills a fixture's placeholders and gives it the CRLF line ends it has on the wire. */
export function fill(raw: string, values: { token: string; unique?: string }): string {
  return raw
    .replaceAll("{{TOKEN}}", values.token)
    .replaceAll("{{UNIQUE}}", values.unique ?? unique())
    .replace(/\r?\n/g, "\r\n");
}

export type Delivery = { rejected: string | null };

/** Builds what Email Routing hands the Worker and calls the exported email() handler. */
export async function deliver(
  raw: string | Uint8Array,
  envelope: { from: string; to?: string } = { from: "sender@example.id" },
  overrides: Partial<Env> = {},
): Promise<Delivery> {
  const bytes = typeof raw === "string" ? new TextEncoder().encode(raw) : raw;
  const result: Delivery = { rejected: null };
  const message: ForwardableEmailMessage = {
    from: envelope.from,
    to: envelope.to ?? ENVELOPE_TO,
    raw: new Blob([bytes]).stream(),
    headers: headersOf(typeof raw === "string" ? raw : new TextDecoder().decode(raw)),
    rawSize: bytes.byteLength,
    canBeForwarded: true,
    setReject(reason: string) {
      result.rejected = reason;
    },
    forward: () => Promise.reject(new Error("forward is not used")),
    reply: () => Promise.reject(new Error("reply is not used")),
  };
  const ctx = createExecutionContext();
  await worker.email(message, { ...env, ...overrides }, ctx);
  await waitOnExecutionContext(ctx);
  return result;
}

function headersOf(raw: string): Headers {
  const headers = new Headers();
  const block = raw.split(/\r?\n\r?\n/, 1)[0] ?? "";
  for (const line of block.replace(/\r?\n[ \t]+/g, " ").split(/\r?\n/)) {
    const colon = line.indexOf(":");
    if (colon > 0) {
      headers.append(line.slice(0, colon).trim(), line.slice(colon + 1).trim());
    }
  }
  return headers;
}

export async function registerTicket(replyToken: string, failWith?: number | "network"): Promise<string> {
  const response = await env.API.fetch("https://api.internal/__test/tickets", {
    method: "POST",
    body: JSON.stringify({ replyToken, failWith }),
  });
  const body = (await response.json()) as { ticketId: string };
  return body.ticketId;
}

export async function sentRequests(replyToken: string): Promise<RecordedRequest[]> {
  const response = await env.API.fetch(
    `https://api.internal/__test/requests?replyToken=${encodeURIComponent(replyToken)}`,
  );
  return (await response.json()) as RecordedRequest[];
}

export async function listStored(prefix = "support/inbound/"): Promise<string[]> {
  const listing = await env.FILES.list({ prefix });
  return listing.objects.map((o) => o.key);
}
