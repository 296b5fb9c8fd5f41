import { sql } from "drizzle-orm";
import { sessionRevocations } from "../db/platform-schema";
import type { PlatformDb } from "../env";
import { Unauthorized } from "../errors";
import { ACCESS_TOKEN_TTL_SECONDS } from "./tokens";

/**
 * Whether the sign-in behind an access token (its `sid`, the refresh family) is still live: not logged
 * out, not revoked for reuse, not ended by a password reset or a removal. Every tenant and operator
 * request asks, reads included (issue 31, L3: bulk reads of personal data must stop with the sign-in),
 * and so does every identity route; only a `user`-scope read outside identity (a support file) skips it.
 *
 * The answer comes from this isolate's list of ended sign-ins, fed by the platform table
 * `session_revocations` (a trigger on `sessions` appends every family whose `revoked_at` is set, by
 * whatever statement; ADR 0004). The isolate reads the feed's new entries at most every FEED_TTL_MS,
 * one read for all its callers, instead of one read per sign-in: a burst of 2,000 voters, each with a
 * sign-in of their own, costs one read of the platform database, not 2,000.
 *
 * - A family is live unless it is in the list. Every access token names a family created with it
 *   (sign-in, refresh), and the token's own `exp` ends it within 15 minutes of its last refresh.
 * - The isolate that ends a sign-in marks it at once (`forgetSession`) and reads the feed again on the
 *   next check; other isolates see it within FEED_TTL_MS.
 * - Both the entries' times and the window are the platform database's clock, so no Worker's clock
 *   (or a test's injected one) can open a gap. Each read goes back FEED_OVERLAP before the previous
 *   read's time, so an entry is never missed for being stamped a moment before that read.
 * - A family is kept in the list for KEEP_MS after this isolate learnt of it: longer than any access
 *   token issued before the revocation can live.
 */
const FEED_TTL_MS = 5_000;
const FEED_OVERLAP = "-60 seconds";
/** A token lives 15 minutes (plus 30 s of clock skew); the feed keeps and reads back 20. */
const KEEP_MS = ACCESS_TOKEN_TTL_SECONDS * 1000 + 5 * 60 * 1000;
const FIRST_READ_WINDOW = "-20 minutes";

interface Feed {
  /** Family id → when this isolate learnt it was ended (Date.now()), for pruning. */
  ended: Map<string, number>;
  /** The platform database's time at the last read, or null before the first. */
  readAt: string | null;
  /** Date.now() when the list was last brought up to date. */
  checkedAt: number;
  reading: Promise<void> | null;
}

const feed: Feed = { ended: new Map(), readAt: null, checkedAt: Number.NEGATIVE_INFINITY, reading: null };

const ISO_NOW = sql`strftime('%Y-%m-%dT%H:%M:%fZ', 'now')`;

/**
 * The first row carries the database's own time (a marker with a null family), then every family ended
 * since FEED_OVERLAP before the last read, or within FIRST_READ_WINDOW on an isolate's first read.
 */
async function readFeed(platform: PlatformDb): Promise<void> {
  const since = feed.readAt
    ? sql`strftime('%Y-%m-%dT%H:%M:%fZ', ${feed.readAt}, ${FEED_OVERLAP})`
    : sql`strftime('%Y-%m-%dT%H:%M:%fZ', 'now', ${FIRST_READ_WINDOW})`;
  const rows = await platform.all<{ familyId: string | null; at: string }>(
    sql`SELECT NULL AS familyId, ${ISO_NOW} AS at
        UNION ALL
        SELECT ${sessionRevocations.familyId}, ${sessionRevocations.at} FROM ${sessionRevocations}
        WHERE ${sessionRevocations.at} > ${since}`,
  );
  const now = Date.now();
  for (const row of rows) {
    if (row.familyId === null) {
      feed.readAt = row.at;
    } else if (!feed.ended.has(row.familyId)) {
      feed.ended.set(row.familyId, now);
    }
  }
  for (const [familyId, learnt] of feed.ended) {
    if (learnt > now - KEEP_MS) {
      break;
    }
    feed.ended.delete(familyId);
  }
  feed.checkedAt = now;
}

/** Brings the list up to date when it is older than FEED_TTL_MS: one read at a time per isolate. */
async function upToDate(platform: PlatformDb): Promise<void> {
  const age = Date.now() - feed.checkedAt;
  // A clock that moved back (a test's) reads again rather than trusting a check from its future.
  if (age >= 0 && age < FEED_TTL_MS) {
    return;
  }
  feed.reading ??= readFeed(platform).finally(() => {
    feed.reading = null;
  });
  await feed.reading;
}

/**
 * Called by the code that ended a sign-in, once its statement has run: this isolate refuses the
 * family's tokens at once, and reads the feed again on its next check (for any other family the same
 * statement ended).
 */
export function forgetSession(sid: string): void {
  feed.ended.delete(sid);
  feed.ended.set(sid, Date.now());
  feed.checkedAt = Number.NEGATIVE_INFINITY;
}

export async function requireLiveSession(platform: PlatformDb, sid: string): Promise<void> {
  await upToDate(platform);
  if (feed.ended.has(sid)) {
    throw new Unauthorized("session_revoked", "This sign-in has ended; sign in again.");
  }
}

/** An isolate's first check, for tests: the list forgotten, the next check reads FIRST_READ_WINDOW back. */
export function resetLivenessFeed(): void {
  feed.ended.clear();
  feed.readAt = null;
  feed.checkedAt = Number.NEGATIVE_INFINITY;
}
