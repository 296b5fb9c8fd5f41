import { and, eq, inArray, lt, or, sql } from "drizzle-orm";
import type { Db } from "../db/client";
import { messageAttempts, messages } from "../db/schema";
import type { Config } from "../env";
import { runWithRequestId } from "../http/requestId";
import { newId } from "../ids";
import type { EmailPayload, PushPayload, WhatsAppPayload } from "../payloads";
import type { DeliveryResult, Providers } from "../providers/types";
import { deactivateDevice } from "../services/devices";
import { backoffSeconds } from "./backoff";
import type { QueueBody } from "./body";

export interface ConsumerDeps {
  db: Db;
  config: Config;
  providers: Providers;
  now: () => Date;
  random?: () => number;
}

export type Verdict =
  | { action: "ack"; reason: string }
  | { action: "retry"; delaySeconds: number; reason: string };

// Longer than any provider call we make; a consumer that dies mid-send frees the message after this.
const LEASE_MS = 120_000;
const FINAL = new Set(["sent", "failed", "dead", "skipped"]);

type MessageRow = typeof messages.$inferSelect;

async function deliver(row: MessageRow, providers: Providers, from: string): Promise<DeliveryResult> {
  const unconfigured: DeliveryResult = {
    ok: false,
    retryable: true,
    error: `no ${row.channel} provider configured`,
  };
  const payload: unknown = JSON.parse(row.payload);
  try {
    switch (row.channel) {
      case "email":
        return providers.email
          ? await providers.email.send({ ...(payload as EmailPayload), from, messageId: row.id })
          : unconfigured;
      case "push":
        return providers.push
          ? await providers.push.send({ ...(payload as PushPayload), messageId: row.id })
          : unconfigured;
      case "whatsapp":
        return providers.whatsapp
          ? await providers.whatsapp.send({ ...(payload as WhatsAppPayload), messageId: row.id })
          : unconfigured;
    }
  } catch (err) {
    return {
      ok: false,
      retryable: true,
      error: `provider threw: ${err instanceof Error ? err.message : String(err)}`,
    };
  }
}

// One delivery attempt for one queue message. `queueAttempt` is the queue's own counter, the same one that
// decides dead-lettering, so our "last attempt" and the queue's agree.
export async function processMessage(
  messageId: string,
  queueAttempt: number,
  deps: ConsumerDeps,
): Promise<Verdict> {
  const { db, config } = deps;
  const started = deps.now();
  const row = await db.select().from(messages).where(eq(messages.id, messageId)).get();
  if (!row) {
    return { action: "ack", reason: "unknown message" };
  }
  if (FINAL.has(row.status)) {
    // Redelivery after the message was sent (or given up): never send twice.
    return { action: "ack", reason: `already ${row.status}` };
  }
  if (row.notBefore && Date.parse(row.notBefore) - started.getTime() > 1000) {
    return {
      action: "retry",
      delaySeconds: Math.ceil((Date.parse(row.notBefore) - started.getTime()) / 1000),
      reason: "paced",
    };
  }

  // Claim: only one consumer may send. A `sending` row whose lease ran out belongs to a consumer that died.
  const claimed = await db
    .update(messages)
    .set({
      status: "sending",
      attempts: sql`${messages.attempts} + 1`,
      leaseUntil: new Date(started.getTime() + LEASE_MS).toISOString(),
      updatedAt: started.toISOString(),
    })
    .where(
      and(
        eq(messages.id, messageId),
        or(
          inArray(messages.status, ["queued", "retrying"]),
          and(eq(messages.status, "sending"), lt(messages.leaseUntil, started.toISOString())),
        ),
      ),
    )
    .returning()
    .get();
  if (!claimed) {
    return { action: "retry", delaySeconds: Math.ceil(LEASE_MS / 1000), reason: "held by another consumer" };
  }

  const result = await deliver(claimed, deps.providers, config.email?.from ?? "");
  const finished = deps.now();
  const finishedIso = finished.toISOString();
  const isLast = queueAttempt >= config.maxAttempts;
  const outcome = result.ok ? "sent" : !result.retryable ? "failed" : isLast ? "dead" : "retrying";
  const delaySeconds =
    outcome === "retrying" && !result.ok
      ? backoffSeconds(
          queueAttempt,
          { baseSeconds: config.retryBaseSeconds, maxSeconds: config.retryMaxSeconds },
          deps.random,
          result.retryAfterSeconds,
        )
      : 0;

  const update = result.ok
    ? {
        status: "sent" as const,
        sentAt: finishedIso,
        providerMessageId: result.providerMessageId ?? null,
        lastError: null,
      }
    : { status: outcome as "failed" | "dead" | "retrying", lastError: result.error };
  await db.batch([
    db
      .update(messages)
      .set({ ...update, leaseUntil: null, updatedAt: finishedIso })
      .where(eq(messages.id, messageId)),
    db.insert(messageAttempts).values({
      id: newId(),
      messageId,
      attempt: claimed.attempts,
      startedAt: started.toISOString(),
      finishedAt: finishedIso,
      outcome,
      providerStatus: result.status ?? null,
      providerResponse: result.response ?? null,
      error: result.ok ? null : result.error,
    }),
  ]);
  if (!result.ok && result.deactivateToken && claimed.channel === "push") {
    await deactivateDevice(db, claimed.recipient, "UNREGISTERED", finished);
  }

  switch (outcome) {
    case "sent":
    case "failed":
      return { action: "ack", reason: outcome };
    case "retrying":
      return { action: "retry", delaySeconds, reason: result.ok ? "" : result.error };
    case "dead":
      // Retrying on the last attempt is what moves the message to the dead-letter queue.
      return { action: "retry", delaySeconds: 0, reason: "retries exhausted" };
  }
}

export async function consumeBatch(batch: MessageBatch<QueueBody>, deps: ConsumerDeps): Promise<void> {
  // Messages are independent: one slow provider call must not hold the rest of the batch.
  await Promise.all(
    batch.messages.map(async (message) => {
      try {
        const verdict = await runWithRequestId(message.body.requestId, () =>
          processMessage(message.body.messageId, message.attempts, deps),
        );
        if (verdict.action === "ack") {
          message.ack();
        } else {
          message.retry(verdict.delaySeconds > 0 ? { delaySeconds: verdict.delaySeconds } : undefined);
        }
      } catch (err) {
        // Our own failure (D1 unavailable, say): the message is untouched, so let the queue bring it back.
        console.error(
          `[notify] consumer error for ${message.body?.messageId} (request ${message.body?.requestId ?? "-"}):`,
          err,
        );
        message.retry({
          delaySeconds: backoffSeconds(message.attempts, {
            baseSeconds: deps.config.retryBaseSeconds,
            maxSeconds: deps.config.retryMaxSeconds,
          }),
        });
      }
    }),
  );
}
