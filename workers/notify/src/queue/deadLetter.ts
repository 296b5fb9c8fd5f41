import { and, eq, notInArray } from "drizzle-orm";
import type { Db } from "../db/client";
import { messages } from "../db/schema";
import type { QueueBody } from "./body";

type MessageRow = typeof messages.$inferSelect;

export const DEAD_LETTER_QUEUE = "warga-notify-dlq";

// Everything here has exhausted its retries. Usually the main consumer already marked it dead; this also
// covers a consumer that crashed on its last attempt, leaving the row `retrying` or `sending`.
// `onDead` hears of each message this consumer gave up on (the operator alert); the main consumer already
// raised one for those it marked dead itself.
export async function consumeDeadLetters(
  batch: MessageBatch<QueueBody>,
  db: Db,
  now: () => Date,
  onDead?: (row: MessageRow) => Promise<void>,
): Promise<void> {
  await Promise.all(
    batch.messages.map(async (message) => {
      try {
        const marked = await db
          .update(messages)
          .set({ status: "dead", leaseUntil: null, updatedAt: now().toISOString() })
          .where(
            and(
              eq(messages.id, message.body.messageId),
              notInArray(messages.status, ["sent", "failed", "dead"]),
            ),
          )
          .returning();
        for (const row of marked) {
          await onDead?.(row).catch((err) => console.error(`[notify] dead-letter alert for ${row.id}:`, err));
        }
        message.ack();
      } catch (err) {
        console.error(`[notify] dead-letter error for ${message.body?.messageId}:`, err);
        message.retry();
      }
    }),
  );
}
