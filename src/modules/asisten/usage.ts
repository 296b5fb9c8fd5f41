import { and, eq, sql } from "drizzle-orm";
import type { TenantCtx } from "../../core/context";
import { RateLimited } from "../../core/errors";
import { requireUser } from "../../core/http/access";
import { DAY_MS, jakartaDay, jakartaDayStart } from "../../core/time";
import { asistenUsage } from "./tables";

/**
 * Counts one request against the caller's budget for today (Asia/Jakarta) or refuses it with 429 and a
 * Retry-After that ends at the next Jakarta midnight. One conditional UPSERT decides: the row moves only
 * while both the requests and the tokens of the day are under their limits, so concurrent requests
 * cannot pass the limit together.
 */
export async function spendRequest(ctx: TenantCtx, now: Date): Promise<{ day: string }> {
  const userId = requireUser(ctx).userId;
  const day = jakartaDay(now);
  const { dailyRequests, dailyTokens } = ctx.config.assistant;
  const counted = await ctx.db
    .insert(asistenUsage)
    .values({ userId, day, requests: 1, tokens: 0 })
    .onConflictDoUpdate({
      target: [asistenUsage.userId, asistenUsage.day],
      set: { requests: sql`${asistenUsage.requests} + 1` },
      setWhere: sql`${asistenUsage.requests} < ${dailyRequests} AND ${asistenUsage.tokens} < ${dailyTokens}`,
    })
    .returning({ requests: asistenUsage.requests })
    .get();
  if (!counted) {
    const nextDay = jakartaDayStart(day).getTime() + DAY_MS;
    throw new RateLimited(
      Math.max(1, Math.ceil((nextDay - now.getTime()) / 1000)),
      "Your assistant budget for today is used up; it renews at midnight (WIB).",
    );
  }
  return { day };
}

/** Adds the model tokens a conversation used to the caller's day. */
export async function spendTokens(ctx: TenantCtx, day: string, tokens: number): Promise<void> {
  if (tokens <= 0) {
    return;
  }
  await ctx.db
    .update(asistenUsage)
    .set({ tokens: sql`${asistenUsage.tokens} + ${tokens}` })
    .where(and(eq(asistenUsage.userId, requireUser(ctx).userId), eq(asistenUsage.day, day)));
}
