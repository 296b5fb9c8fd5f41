import { eq } from "drizzle-orm";
import { messages } from "../db/schema";
import { newId } from "../ids";
import { normalizeMsisdn } from "../phone";
import { renderText } from "../templates/render";
import { requireChannel } from "./channels";
import type { ServiceContext } from "./context";
import { type EnqueueResult, enqueue } from "./outbox";

export function msisdn(input: string): string {
  const normalized = normalizeMsisdn(input);
  if (!normalized) {
    // The route schema already rejects these; this guards direct callers of the verb.
    throw new Error(`invalid phone number ${input}`);
  }
  return normalized;
}

export async function sendWhatsApp(
  ctx: ServiceContext,
  input: { to: string; message: string; idempotencyKey?: string },
): Promise<EnqueueResult> {
  requireChannel(ctx, "whatsapp");
  const { idempotencyKey, ...request } = input;
  const to = msisdn(input.to);
  return enqueue(ctx, {
    operation: "whatsapp.send",
    idempotencyKey,
    request,
    build: () => [{ channel: "whatsapp" as const, recipient: to, payload: { to, message: input.message } }],
  });
}

// Reserves `count` consecutive send slots on the gateway's clock in one UPSERT, so concurrent blasts queue
// behind each other instead of both starting now and together exceeding the gateway's rate.
export async function reserveSlots(
  ctx: ServiceContext,
  count: number,
): Promise<{ start: number; interval: number }> {
  const interval = 60_000 / ctx.config.whatsappRatePerMinute;
  const now = ctx.now().getTime();
  const span = Math.ceil(count * interval);
  const row = await ctx.db.$client
    .prepare(
      `INSERT INTO pacing (channel, next_slot_at) VALUES ('whatsapp', ?1 + ?2)
       ON CONFLICT(channel) DO UPDATE SET next_slot_at = MAX(next_slot_at, ?1) + ?2
       RETURNING next_slot_at`,
    )
    .bind(now, span)
    .first<{ next_slot_at: number }>();
  const end = row?.next_slot_at ?? now + span;
  return { start: end - span, interval };
}

export interface BlastInput {
  recipients: { to: string; variables?: Record<string, string> }[];
  message: string;
  idempotencyKey?: string;
}

export async function blastWhatsApp(
  ctx: ServiceContext,
  input: BlastInput,
): Promise<EnqueueResult & { batchId: string }> {
  requireChannel(ctx, "whatsapp");
  const { idempotencyKey, ...request } = input;
  let batchId = newId();
  const result = await enqueue(ctx, {
    operation: "whatsapp.blast",
    idempotencyKey,
    request,
    build: async () => {
      const { start, interval } = await reserveSlots(ctx, input.recipients.length);
      return input.recipients.map((recipient, i) => {
        const to = msisdn(recipient.to);
        return {
          channel: "whatsapp" as const,
          recipient: to,
          batchId,
          notBefore: new Date(start + Math.floor(i * interval)),
          payload: { to, message: renderText(input.message, recipient.variables ?? {}) },
        };
      });
    },
  });
  if (result.replayed && result.messageIds[0]) {
    const first = await ctx.db
      .select({ batchId: messages.batchId })
      .from(messages)
      .where(eq(messages.id, result.messageIds[0]))
      .get();
    batchId = first?.batchId ?? batchId;
  }
  return { ...result, batchId };
}
