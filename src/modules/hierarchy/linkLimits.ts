import { and, count, eq, lt, ne, sql } from "drizzle-orm";
import type { TenantCtx } from "../../core/context";
import { tenants } from "../../core/db/platform-schema";
import { DomainError } from "../../core/errors";
import { newId } from "../../core/ids";
import { DAY_MS } from "../../core/time";
import { rtLinkAsks } from "./platform-tables";

/**
 * The limits on asking (issue 44 P9): a request emails the RT's admins, so an RW may not hold an RT's
 * slot and ask again after every decline without end. An RW asks an RT that declined it again only
 * after LINK_DECLINE_COOLDOWN_DAYS (429 `link_request_cooldown`), makes at most LINK_ASKS_PER_DAY
 * requests in 24 hours and keeps at most LINK_REQUESTS_OPEN waiting at once (429
 * `link_request_limit`); and an RT's admins are told of the same RW's request at most once every
 * LINK_RETELL_HOURS (a request withdrawn, or a link undone, and asked again is stored and shown at
 * GET /parent-request, not emailed again). The checks run before the write and are not re-checked inside its batch:
 * two requests of the same RW at the same instant may both pass the last free place, which bounds the
 * emails all the same.
 */
export const LINK_DECLINE_COOLDOWN_DAYS = 7;
export const LINK_RETELL_HOURS = 24;
export const LINK_ASKS_PER_DAY = 20;
export const LINK_REQUESTS_OPEN = 20;

const HOUR_MS = 3_600_000;

function tooSoon(
  code: "link_request_cooldown" | "link_request_limit",
  message: string,
  until: number,
  now: number,
) {
  return new DomainError("rate_limited", code, message, {
    retryAfter: Math.max(1, Math.ceil((until - now) / 1000)),
  });
}

export async function checkAskLimits(ctx: TenantCtx, child: Pick<typeof tenants.$inferSelect, "id">) {
  const now = ctx.now().getTime();
  const dayAgo = new Date(now - DAY_MS).toISOString();
  const [asks, open] = await Promise.all([
    ctx.platform
      .select({
        declinedAt: sql<
          string | null
        >`max(CASE WHEN ${rtLinkAsks.kind} = 'decline' AND ${rtLinkAsks.rtId} = ${child.id} THEN ${rtLinkAsks.at} END)`,
        askedAt: sql<
          string | null
        >`max(CASE WHEN ${rtLinkAsks.kind} = 'ask' AND ${rtLinkAsks.rtId} = ${child.id} THEN ${rtLinkAsks.at} END)`,
        asksToday: sql<number>`coalesce(sum(CASE WHEN ${rtLinkAsks.kind} = 'ask' AND ${rtLinkAsks.at} > ${dayAgo} THEN 1 ELSE 0 END), 0)`,
        firstToday: sql<
          string | null
        >`min(CASE WHEN ${rtLinkAsks.kind} = 'ask' AND ${rtLinkAsks.at} > ${dayAgo} THEN ${rtLinkAsks.at} END)`,
      })
      .from(rtLinkAsks)
      .where(eq(rtLinkAsks.rwId, ctx.tenant.id))
      .get(),
    ctx.platform
      .select({ n: count() })
      .from(tenants)
      .where(and(eq(tenants.parentRequestId, ctx.tenant.id), ne(tenants.status, "ditutup")))
      .get(),
  ]);
  const declinedUntil = asks?.declinedAt
    ? Date.parse(asks.declinedAt) + LINK_DECLINE_COOLDOWN_DAYS * DAY_MS
    : 0;
  if (declinedUntil > now) {
    throw tooSoon(
      "link_request_cooldown",
      `This RT declined your request; you may ask it again after ${new Date(declinedUntil).toISOString()}.`,
      declinedUntil,
      now,
    );
  }
  if (Number(asks?.asksToday ?? 0) >= LINK_ASKS_PER_DAY && asks?.firstToday) {
    throw tooSoon(
      "link_request_limit",
      `Your RW asked ${LINK_ASKS_PER_DAY} RTs in the last 24 hours; ask again later.`,
      Date.parse(asks.firstToday) + DAY_MS,
      now,
    );
  }
  if ((open?.n ?? 0) >= LINK_REQUESTS_OPEN) {
    throw tooSoon(
      "link_request_limit",
      `${LINK_REQUESTS_OPEN} of your RW's requests wait for an answer; withdraw one or wait for the RTs to answer.`,
      now + DAY_MS,
      now,
    );
  }
  // Whether the RT's admins are told: not again within LINK_RETELL_HOURS of this RW's last ask.
  return { tell: !asks?.askedAt || Date.parse(asks.askedAt) + LINK_RETELL_HOURS * HOUR_MS <= now };
}

/** The row that records an ask or a decline, and the pruning of the RW's rows no limit reads any more. */
export function askRecord(ctx: TenantCtx, rwId: string, rtId: string, kind: "ask" | "decline", at: string) {
  const oldest = new Date(ctx.now().getTime() - LINK_DECLINE_COOLDOWN_DAYS * DAY_MS).toISOString();
  return [
    ctx.platform.delete(rtLinkAsks).where(and(eq(rtLinkAsks.rwId, rwId), lt(rtLinkAsks.at, oldest))),
    ctx.platform.insert(rtLinkAsks).values({ id: newId(), rwId, rtId, kind, at }),
  ] as const;
}
