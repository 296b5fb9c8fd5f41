import { and, asc, desc, eq, gte, lt, type SQL } from "drizzle-orm";
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

export async function retryDeadMessage(ctx: ServiceContext, id: string): Promise<{ messageIds: string[] }> {
  const now = ctx.now().toISOString();
  // Conditional update: two operators pressing retry at once must not queue the message twice.
  const claimed = await ctx.db
    .update(messages)
    .set({ status: "queued", leaseUntil: null, notBefore: null, updatedAt: now })
    .where(and(eq(messages.id, id), eq(messages.status, "dead")))
    .returning({ id: messages.id })
    .all();
  if (claimed.length === 0) {
    const exists = await ctx.db
      .select({ status: messages.status })
      .from(messages)
      .where(eq(messages.id, id))
      .get();
    if (!exists) {
      throw notFound("message_not_found", `Message ${id} does not exist.`);
    }
    throw conflict("message_not_dead", `Only dead messages can be retried; this one is ${exists.status}.`);
  }
  try {
    const requestId = currentRequestId();
    await ctx.queue.send({ messageId: id, ...(requestId ? { requestId } : {}) });
  } catch (err) {
    console.error("[notify] retry enqueue failed:", err);
    await ctx.db
      .update(messages)
      .set({ status: "dead", updatedAt: ctx.now().toISOString() })
      .where(eq(messages.id, id));
    throw unavailable("dependency_unavailable", "The delivery queue is unavailable; the message stays dead.");
  }
  return { messageIds: [id] };
}
