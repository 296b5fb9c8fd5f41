import { and, asc, desc, eq, gte, lt, type SQL, sql } from "drizzle-orm";
import { type Channel, type MessageStatus, messageAttempts, messages } from "../db/schema";
import { conflict, notFound, unavailable } from "../errors";
import { currentRequestId } from "../http/requestId";
import type { ServiceContext } from "./context";

type MessageRow = typeof messages.$inferSelect;

export function summary(row: MessageRow) {
  const { payload: _p, leaseUntil: _l, ...rest } = row;
  return rest;
}

export interface ListMessagesInput {
  status?: MessageStatus;
  channel?: Channel;
  recipient?: string;
  batchId?: string;
  tenant?: string;
  from?: string;
  to?: string;
  limit: number;
  cursor?: string;
}

// Date filters are calendar days in Asia/Jakarta (UTC+7, no DST), inclusive on both ends.
function jakartaDayStart(day: string, plusDays = 0): string {
  const start = new Date(`${day}T00:00:00+07:00`);
  return new Date(start.getTime() + plusDays * 86_400_000).toISOString();
}

export async function listMessages(ctx: ServiceContext, input: ListMessagesInput) {
  const filters: SQL[] = [];
  if (input.status) {
    filters.push(eq(messages.status, input.status));
  }
  if (input.channel) {
    filters.push(eq(messages.channel, input.channel));
  }
  if (input.recipient) {
    filters.push(eq(messages.recipient, input.recipient));
  }
  if (input.batchId) {
    filters.push(eq(messages.batchId, input.batchId));
  }
  if (input.tenant) {
    // The main API names what a message is about `<tenant id>:<what>:<id>` (src/platform/notify/types.ts).
    // LIKE's own wildcards in the id are escaped so a tenant id matches only itself.
    const escaped = input.tenant.replace(/[\\%_]/g, (ch) => `\\${ch}`);
    filters.push(sql`${messages.reference} LIKE ${`${escaped}:%`} ESCAPE '\\'`);
  }
  if (input.from) {
    filters.push(gte(messages.createdAt, jakartaDayStart(input.from)));
  }
  if (input.to) {
    filters.push(lt(messages.createdAt, jakartaDayStart(input.to, 1)));
  }
  if (input.cursor) {
    // Ids are ULIDs, so "older than the cursor" is "smaller id": stable under concurrent inserts.
    filters.push(lt(messages.id, input.cursor));
  }
  const rows = await ctx.db
    .select()
    .from(messages)
    .where(filters.length > 0 ? and(...filters) : undefined)
    .orderBy(desc(messages.id))
    .limit(input.limit + 1)
    .all();
  const page = rows.slice(0, input.limit);
  const last = page.at(-1);
  return {
    items: page.map(summary),
    nextCursor: rows.length > input.limit && last ? last.id : null,
  };
}

export async function getMessage(ctx: ServiceContext, id: string) {
  const row = await ctx.db.select().from(messages).where(eq(messages.id, id)).get();
  if (!row) {
    throw notFound("message_not_found", `Message ${id} does not exist.`);
  }
  const attempts = await ctx.db
    .select()
    .from(messageAttempts)
    .where(eq(messageAttempts.messageId, id))
    .orderBy(asc(messageAttempts.attempt), asc(messageAttempts.id))
    .all();
  return {
    ...summary(row),
    payload: JSON.parse(row.payload) as Record<string, unknown>,
    attemptLog: attempts.map(({ id: _id, messageId: _m, ...attempt }) => attempt),
  };
}

/**
 * What an operator may send again: a parked message (`dead`: retries exhausted, or an unknown outcome on a
 * provider without an idempotency key) and a `failed` one (the provider refused it for good, e.g. an
 * address it did not know, which the operator may have had corrected since).
 */
export const RETRYABLE_STATUSES = ["dead", "failed"] as const satisfies readonly MessageStatus[];

export async function retryDeadMessage(ctx: ServiceContext, id: string): Promise<{ messageIds: string[] }> {
  const now = ctx.now().toISOString();
  const before = await ctx.db
    .select({ status: messages.status })
    .from(messages)
    .where(eq(messages.id, id))
    .get();
  if (!before) {
    throw notFound("message_not_found", `Message ${id} does not exist.`);
  }
  const was = before.status;
  const notRetryable = (status: MessageStatus) =>
    conflict(
      "message_not_dead",
      `Only dead (parked) or failed messages can be retried; this one is ${status}.`,
    );
  if (!(RETRYABLE_STATUSES as readonly MessageStatus[]).includes(was)) {
    throw notRetryable(was);
  }
  // Conditional update on the status just read: two operators pressing retry at once must not queue the
  // message twice; the loser sees it queued.
  const claimed = await ctx.db
    .update(messages)
    .set({ status: "queued", leaseUntil: null, notBefore: null, updatedAt: now })
    .where(and(eq(messages.id, id), eq(messages.status, was)))
    .returning({ id: messages.id })
    .all();
  if (claimed.length === 0) {
    const now2 = await ctx.db
      .select({ status: messages.status })
      .from(messages)
      .where(eq(messages.id, id))
      .get();
    throw notRetryable(now2?.status ?? was);
  }
  try {
    const requestId = currentRequestId();
    await ctx.queue.send({ messageId: id, ...(requestId ? { requestId } : {}) });
  } catch (err) {
    console.error("[notify] retry enqueue failed:", err);
    await ctx.db
      .update(messages)
      .set({ status: was, updatedAt: ctx.now().toISOString() })
      .where(and(eq(messages.id, id), eq(messages.status, "queued")));
    throw unavailable(
      "dependency_unavailable",
      `The delivery queue is unavailable; the message stays ${was}.`,
    );
  }
  return { messageIds: [id] };
}
