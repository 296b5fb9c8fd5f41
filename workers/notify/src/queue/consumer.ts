import { and, desc, eq, gt, inArray, isNull, lt, or, sql } from "drizzle-orm";
import type { Db } from "../db/client";
import { messageAttempts, messages } from "../db/schema";
import type { Config } from "../env";
import { runWithRequestId } from "../http/requestId";
import { newId } from "../ids";
import type { EmailPayload, PushPayload, WhatsAppPayload } from "../payloads";
import type {
  DeliveryResult,
  EmailProvider,
  Providers,
  PushProvider,
  WhatsAppProvider,
} from "../providers/types";
import { alertStatusOf, raiseAlert } from "../services/alerts";
import { deactivateDevice } from "../services/devices";
import { backoffSeconds } from "./backoff";
import type { QueueBody } from "./body";

export interface ConsumerDeps {
  db: Db;
  config: Config;
  providers: Providers;
  now: () => Date;
  random?: () => number;
  /** The deadline of one attempt's provider calls; AbortSignal.timeout unless a test hands in its own. */
  deadline?: (ms: number) => AbortSignal;
  /** Where an operator alert's email is queued; without it an alert is counted but not emailed. */
  queue?: Queue<QueueBody>;
}

export type Verdict =
  | { action: "ack"; reason: string }
  | { action: "retry"; delaySeconds: number; reason: string };

// Longer than any provider call we make (config.providerTimeoutMs is at most half of it); a consumer that
// dies mid-send frees the message after this.
export const LEASE_MS = 120_000;
const FINAL = new Set(["sent", "failed", "dead", "skipped"]);

type MessageRow = typeof messages.$inferSelect;

function providerOf(
  row: MessageRow,
  providers: Providers,
): EmailProvider | PushProvider | WhatsAppProvider | null {
  switch (row.channel) {
    case "email":
      return providers.email;
    case "push":
      return providers.push;
    case "whatsapp":
      return providers.whatsapp;
  }
}

async function deliver(
  row: MessageRow,
  providers: Providers,
  from: string,
  signal: AbortSignal,
): Promise<DeliveryResult> {
  const unconfigured: DeliveryResult = {
    ok: false,
    retryable: true,
    error: `no ${row.channel} provider configured`,
  };
  const payload: unknown = JSON.parse(row.payload);
  const context = { messageId: row.id, signal };
  try {
    switch (row.channel) {
      case "email":
        return providers.email
          ? await providers.email.send({ ...(payload as EmailPayload), from, ...context })
          : unconfigured;
      case "push":
        return providers.push
          ? await providers.push.send({ ...(payload as PushPayload), ...context })
          : unconfigured;
      case "whatsapp":
        return providers.whatsapp
          ? await providers.whatsapp.send({ ...(payload as WhatsAppPayload), ...context })
          : unconfigured;
    }
  } catch (err) {
    return {
      ok: false,
      retryable: true,
      ...(signal.aborted ? { unknown: true } : {}),
      error: `provider threw: ${err instanceof Error ? err.message : String(err)}`,
    };
  }
}

type Outcome = "sent" | "failed" | "dead" | "retrying" | "unknown";

// What the attempt means for the message. A timed-out call on a provider without an idempotency key may
// have delivered: it is parked as `dead` (an operator can look and retry it) instead of sent blindly again.
function outcomeOf(result: DeliveryResult, idempotent: boolean, isLast: boolean): Outcome {
  if (result.ok) {
    return "sent";
  }
  if (result.unknown && !idempotent) {
    return "unknown";
  }
  return !result.retryable ? "failed" : isLast ? "dead" : "retrying";
}

const UNKNOWN_NOTE =
  "outcome unknown: the provider did not answer before the deadline and takes no idempotency key, so the message was not sent again; check with the recipient or the provider, then POST /v1/messages/:id/retry";

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
  // The claim is (attempts, lease_until): every claim bumps the counter, so it names this claim alone.
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

  const accepted = await acceptedAfterLostClaim(db, messageId);
  const deadline = deps.deadline ?? ((ms: number) => AbortSignal.timeout(ms));
  const result: DeliveryResult = accepted
    ? {
        ok: true,
        providerMessageId: accepted.providerMessageId ?? undefined,
        response: `not sent again: attempt ${accepted.attempt} was accepted after its claim was lost`,
      }
    : await deliver(claimed, deps.providers, config.email?.from ?? "", deadline(config.providerTimeoutMs));
  const finished = deps.now();
  const isLast = queueAttempt >= config.maxAttempts;
  const idempotent = providerOf(claimed, deps.providers)?.idempotent ?? false;
  const outcome = outcomeOf(result, idempotent, isLast);
  const kept = await finish(deps, claimed, started, finished, result, outcome);
  if (!result.ok && result.deactivateToken && claimed.channel === "push") {
    // A fact about the token, true whoever holds the message now.
    await deactivateDevice(db, claimed.recipient, "UNREGISTERED", finished);
  }
  if (kept.held) {
    await alertIfDue(deps, claimed, outcome, result, finished);
  }
  if (!kept.held) {
    // Another consumer took the message over (our lease ran out mid-call): it owns the message and its
    // own queue copy. If nobody has yet, the message needs a new owner, which a redelivery will be.
    return kept.takenOver
      ? { action: "ack", reason: "claim lost to another consumer" }
      : { action: "retry", delaySeconds: Math.max(1, config.retryBaseSeconds), reason: "claim expired" };
  }

  switch (outcome) {
    case "sent":
    case "failed":
    case "unknown":
      return { action: "ack", reason: outcome };
    case "retrying":
      return {
        action: "retry",
        delaySeconds: backoffSeconds(
          queueAttempt,
          { baseSeconds: config.retryBaseSeconds, maxSeconds: config.retryMaxSeconds },
          deps.random,
          result.ok ? undefined : result.retryAfterSeconds,
        ),
        reason: result.ok ? "" : result.error,
      };
    case "dead":
      // Retrying on the last attempt is what moves the message to the dead-letter queue.
      return { action: "retry", delaySeconds: 0, reason: "retries exhausted" };
  }
}

/**
 * Raises the operator alert an outcome calls for (services/alerts.ts). The outcome is already written;
 * trouble with the alert itself is logged, never allowed to change what happens to the message.
 */
async function alertIfDue(
  deps: ConsumerDeps,
  claimed: MessageRow,
  outcome: Outcome,
  result: DeliveryResult,
  at: Date,
): Promise<void> {
  const status = alertStatusOf(outcome, claimed.attempts, result);
  if (!status || result.ok) {
    return;
  }
  try {
    await raiseAlert(
      { db: deps.db, config: deps.config, queue: deps.queue, now: () => at },
      {
        message: claimed,
        provider: providerOf(claimed, deps.providers)?.name ?? "none",
        status,
        error: result.error,
      },
    );
  } catch (err) {
    console.error(`[notify] operator alert for ${claimed.id} not raised:`, err);
  }
}

/**
 * A consumer that lost its claim logs what the provider told it (`claim_lost`, no error when the provider
 * accepted). The next holder finishes the message from that record instead of sending it again, which
 * matters for providers without an idempotency key.
 */
async function acceptedAfterLostClaim(db: Db, messageId: string) {
  return db
    .select({ attempt: messageAttempts.attempt, providerMessageId: messageAttempts.providerMessageId })
    .from(messageAttempts)
    .where(
      and(
        eq(messageAttempts.messageId, messageId),
        eq(messageAttempts.outcome, "claim_lost"),
        isNull(messageAttempts.error),
      ),
    )
    .orderBy(desc(messageAttempts.attempt))
    .get();
}

/**
 * Writes the attempt's outcome only while this consumer still holds its claim: the UPDATE compares the
 * claim (status `sending`, the attempt counter and lease this claim set) and the lease's expiry, all in
 * its WHERE. The attempt row goes in the same batch either way; `changes()` is the UPDATE's row count,
 * so a consumer that lost its claim logs `claim_lost` with what the provider told it, and the message
 * row stays as its current holder left it (acceptedAfterLostClaim then finishes it without a resend).
 */
async function finish(
  deps: ConsumerDeps,
  claimed: MessageRow,
  started: Date,
  finished: Date,
  result: DeliveryResult,
  outcome: Outcome,
): Promise<{ held: boolean; takenOver: boolean }> {
  const { db } = deps;
  const finishedIso = finished.toISOString();
  const lease = claimed.leaseUntil ?? "";
  const held = and(
    eq(messages.id, claimed.id),
    eq(messages.status, "sending"),
    eq(messages.attempts, claimed.attempts),
    eq(messages.leaseUntil, lease),
    gt(messages.leaseUntil, finishedIso),
  );
  const update = result.ok
    ? {
        status: "sent" as const,
        sentAt: finishedIso,
        providerMessageId: result.providerMessageId ?? null,
        lastError: null,
      }
    : outcome === "unknown"
      ? { status: "dead" as const, lastError: `${result.error}; ${UNKNOWN_NOTE}` }
      : { status: outcome as "failed" | "dead" | "retrying", lastError: result.error };
  const [written, , current] = await db.batch([
    db
      .update(messages)
      .set({ ...update, leaseUntil: null, updatedAt: finishedIso })
      .where(held)
      .returning({ id: messages.id }),
    db.insert(messageAttempts).values({
      id: newId(),
      messageId: claimed.id,
      attempt: claimed.attempts,
      startedAt: started.toISOString(),
      finishedAt: finishedIso,
      outcome: sql`CASE WHEN changes() = 1 THEN ${outcome} ELSE 'claim_lost' END`,
      // What the provider said, whether or not this consumer still held the claim.
      providerStatus: result.status ?? null,
      providerResponse: result.response ?? null,
      providerMessageId: result.ok ? (result.providerMessageId ?? null) : null,
      error: result.ok ? null : result.error,
    }),
    db
      .select({ status: messages.status, attempts: messages.attempts })
      .from(messages)
      .where(eq(messages.id, claimed.id)),
  ]);
  const now = current[0];
  return {
    held: written.length === 1,
    takenOver: !now || now.attempts !== claimed.attempts || FINAL.has(now.status),
  };
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
