import { and, eq, notInArray } from "drizzle-orm";
import type { Db } from "../db/client";
import { messages } from "../db/schema";
import type { QueueBody } from "./body";

export const DEAD_LETTER_QUEUE = "warga-notify-dlq";

// Everything here has exhausted its retries. Usually the main consumer already marked it dead; this also
// covers a consumer that crashed on its last attempt, leaving the row `retrying` or `sending`.
export async function consumeDeadLetters(
  batch: MessageBatch<QueueBody>,
  db: Db,
  now: () => Date,
): Promise<void> {
  await Promise.all(
    batch.messages.map(async (message) => {
      try {
        await db
          .update(messages)
          .set({ status: "dead", leaseUntil: null, updatedAt: now().toISOString() })
          .where(
            and(
              eq(messages.id, message.body.messageId),
              notInArray(messages.status, ["sent", "failed", "dead"]),
            ),
          );
        message.ack();
      } catch (err) {
        console.error(`[notify] dead-letter error for ${message.body?.messageId}:`, err);
        message.retry();
      }
    }),
  );
}
