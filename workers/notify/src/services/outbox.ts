import { eq, inArray } from "drizzle-orm";
import type { Channel, SkipReason } from "../db/schema";
import { idempotencyKeys, messages } from "../db/schema";
import { keyReused, unavailable } from "../errors";
import { currentRequestId } from "../http/requestId";
import { newId } from "../ids";
import type { Payload } from "../payloads";
import type { ServiceContext } from "./context";
import { fingerprint } from "./fingerprint";

export interface OutgoingMessage {
  channel: Channel;
  recipient: string;
  template?: string;
  subject?: string;
  payload: Payload;
  batchId?: string;
  notBefore?: Date;
  reference?: string;
  userId?: string;
  // A fan-out recipient left out: logged as `skipped` with the reason, never queued.
  skipped?: SkipReason;
}

export interface EnqueueRequest {
  // Scopes the idempotency key, so one key can serve different operations.
  operation: string;
  idempotencyKey?: string;
  // The request as the caller sent it, minus the key: a reused key with another request is a conflict.
  request: unknown;
  // Built only after the idempotency check, so a replay renders no template and reserves no pacing slots.
  build: () => Promise<OutgoingMessage[]> | OutgoingMessage[];
}

export interface EnqueueResult {
  messageIds: string[];
  replayed: boolean;
}

const QUEUE_SEND_BATCH = 100;
const MAX_DELAY_SECONDS = 43_200;
// D1 caps a bound value at 2 MB; rows travel as one JSON parameter per statement.
const MAX_JSON_BYTES = 1_500_000;

// One statement per chunk instead of one per row: a 1,000-recipient blast stays well inside D1's
// per-invocation query budget and bound-parameter limit.
const INSERT_FROM_JSON = `INSERT INTO messages (id, channel, status, recipient, template, subject, payload, batch_id, reference, user_id, last_error, attempts, not_before, created_at, updated_at)
SELECT json_extract(value, '$.id'), json_extract(value, '$.channel'), json_extract(value, '$.status'), json_extract(value, '$.recipient'),
  json_extract(value, '$.template'), json_extract(value, '$.subject'), json_extract(value, '$.payload'),
  json_extract(value, '$.batchId'), json_extract(value, '$.reference'), json_extract(value, '$.userId'),
  json_extract(value, '$.lastError'), 0, json_extract(value, '$.notBefore'), ?2, ?2
FROM json_each(?1)`;

interface Row {
  id: string;
  channel: Channel;
  status: "queued" | "skipped";
  recipient: string;
  template: string | null;
  subject: string | null;
  payload: string;
  batchId: string | null;
  reference: string | null;
  userId: string | null;
  lastError: string | null;
  notBefore: string | null;
}

function chunkBySize(rows: Row[]): Row[][] {
  const chunks: Row[][] = [];
  let current: Row[] = [];
  let size = 0;
  for (const row of rows) {
    const rowSize = JSON.stringify(row).length;
    if (current.length > 0 && size + rowSize > MAX_JSON_BYTES) {
      chunks.push(current);
      current = [];
      size = 0;
    }
    current.push(row);
    size += rowSize;
  }
  if (current.length > 0) {
    chunks.push(current);
  }
  return chunks;
}

async function findReplay(
  ctx: ServiceContext,
  scopeKey: string,
  hash: string,
): Promise<EnqueueResult | null> {
  const existing = await ctx.db
    .select()
    .from(idempotencyKeys)
    .where(eq(idempotencyKeys.scopeKey, scopeKey))
    .get();
  if (!existing) {
    return null;
  }
  if (existing.requestHash !== hash) {
    throw keyReused("This idempotency key was already used with a different request.");
  }
  return { messageIds: JSON.parse(existing.messageIds) as string[], replayed: true };
}

function isUniqueViolation(err: unknown): boolean {
  return (
    err instanceof Error &&
    /UNIQUE constraint failed: idempotency_keys/i.test(`${err.message} ${String(err.cause ?? "")}`)
  );
}

export async function enqueue(ctx: ServiceContext, req: EnqueueRequest): Promise<EnqueueResult> {
  const scopeKey = req.idempotencyKey ? `${req.operation}:${req.idempotencyKey}` : null;
  const hash = scopeKey ? await fingerprint(req.request) : "";
  if (scopeKey) {
    const replay = await findReplay(ctx, scopeKey, hash);
    if (replay) {
      return replay;
    }
  }

  const now = ctx.now();
  const nowIso = now.toISOString();
  const outgoing = await req.build();
  const rows: Row[] = outgoing.map((m) => ({
    id: newId(now.getTime()),
    channel: m.channel,
    status: m.skipped ? "skipped" : "queued",
    recipient: m.recipient,
    template: m.template ?? null,
    subject: m.subject ?? null,
    payload: JSON.stringify(m.payload),
    batchId: m.batchId ?? null,
    reference: m.reference ?? null,
    userId: m.userId ?? null,
    lastError: m.skipped ?? null,
    notBefore: m.notBefore && !m.skipped ? m.notBefore.toISOString() : null,
  }));
  const messageIds = rows.map((r) => r.id);

  const d1 = ctx.db.$client;
  const statements: D1PreparedStatement[] = [];
  if (scopeKey) {
    // First in the batch: if a concurrent request with the same key won, the whole batch rolls back.
    statements.push(
      d1
        .prepare(
          "INSERT INTO idempotency_keys (scope_key, request_hash, message_ids, created_at) VALUES (?1, ?2, ?3, ?4)",
        )
        .bind(scopeKey, hash, JSON.stringify(messageIds), nowIso),
    );
  }
  for (const chunk of chunkBySize(rows)) {
    statements.push(d1.prepare(INSERT_FROM_JSON).bind(JSON.stringify(chunk), nowIso));
  }
  if (statements.length > 0) {
    try {
      await d1.batch(statements);
    } catch (err) {
      if (scopeKey && isUniqueViolation(err)) {
        const replay = await findReplay(ctx, scopeKey, hash);
        if (replay) {
          return replay;
        }
      }
      throw err;
    }
  }

  await dispatch(ctx, rows, now, scopeKey);
  return { messageIds, replayed: false };
}

async function dispatch(ctx: ServiceContext, all: Row[], now: Date, scopeKey: string | null): Promise<void> {
  const requestId = currentRequestId();
  // Skipped rows are final when written: there is nothing to queue for them.
  const rows = all.filter((r) => r.status === "queued");
  try {
    for (let i = 0; i < rows.length; i += QUEUE_SEND_BATCH) {
      await ctx.queue.sendBatch(
        rows.slice(i, i + QUEUE_SEND_BATCH).map((row) => {
          const delay = row.notBefore ? Math.ceil((Date.parse(row.notBefore) - now.getTime()) / 1000) : 0;
          return {
            body: { messageId: row.id, ...(requestId ? { requestId } : {}) },
            ...(delay > 0 ? { delaySeconds: Math.min(delay, MAX_DELAY_SECONDS) } : {}),
          };
        }),
      );
    }
  } catch (err) {
    // Messages already handed to the queue are marked failed too, so the consumer acks them unsent: the
    // caller gets 503 and retries the whole request, and nothing goes out twice.
    console.error("[notify] enqueue failed:", err);
    const ids = rows.map((r) => r.id);
    const failedAt = ctx.now().toISOString();
    const undo = [];
    for (let i = 0; i < ids.length; i += 90) {
      undo.push(
        ctx.db
          .update(messages)
          .set({
            status: "failed",
            lastError: "queue unavailable when the message was accepted",
            updatedAt: failedAt,
          })
          .where(inArray(messages.id, ids.slice(i, i + 90))),
      );
    }
    if (scopeKey) {
      await ctx.db.delete(idempotencyKeys).where(eq(idempotencyKeys.scopeKey, scopeKey));
    }
    // A retry of the whole request writes its skipped rows again; these would be counted twice.
    const skippedIds = all.filter((r) => r.status === "skipped").map((r) => r.id);
    for (let i = 0; i < skippedIds.length; i += 90) {
      undo.push(ctx.db.delete(messages).where(inArray(messages.id, skippedIds.slice(i, i + 90))));
    }
    for (const statement of undo) {
      await statement;
    }
    throw unavailable(
      "dependency_unavailable",
      "The delivery queue is unavailable; nothing was sent. Retry later.",
    );
  }
}
