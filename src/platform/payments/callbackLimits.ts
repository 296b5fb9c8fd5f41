import { and, eq, lt } from "drizzle-orm";
import type { PlatformCtx } from "../../core/context";
import { CRON, type Job } from "../../core/jobs";
import { createRateLimit } from "../../core/rateLimit";
import { paymentCallbacks } from "./tables";

/**
 * Issue 31, N4: the callback route is public and writes to the shared platform database, so what an
 * anonymous client can make it keep is bounded three ways: a count per address and per claimed order
 * (a gateway sends a handful of notifications per order, and its retries are minutes apart), fields
 * truncated to a fixed size until the signature verifies (the raw body is kept only then), and
 * unverified rows pruned after a few hours by the hourly job below.
 */
export const callbackRateLimit = createRateLimit({
  "payment-callback:ip": { limit: 120, windowSeconds: 60 },
  "payment-callback:order": { limit: 30, windowSeconds: 60 * 60 },
});

/** The longest a claimed field is kept from a callback whose signature has not verified. */
export const UNVERIFIED_FIELD_MAX = 100;

/** How long an unverified callback stays for the operator to see. */
export const UNVERIFIED_KEEP_HOURS = 6;

export async function pruneUnverifiedCallbacks(ctx: Pick<PlatformCtx, "platform">, scheduledAt: Date) {
  const before = new Date(scheduledAt.getTime() - UNVERIFIED_KEEP_HOURS * 60 * 60 * 1000).toISOString();
  const gone = await ctx.platform
    .delete(paymentCallbacks)
    .where(and(eq(paymentCallbacks.verified, false), lt(paymentCallbacks.receivedAt, before)))
    .returning({ id: paymentCallbacks.id });
  return { pruned: gone.length };
}

export const pruneCallbacksJob: Job = {
  name: "payments.prune-unverified-callbacks",
  cron: CRON.HOURLY,
  run: (ctx, scheduledAt) => pruneUnverifiedCallbacks(ctx, scheduledAt),
};
