import { sql } from "drizzle-orm";
import { DUTIES, type Duty, isResident } from "../context";
import { membershipChanges, sessionRevocations, userNameChanges } from "../db/identity-schema";
import type { PlatformDb } from "../env";
import { Unauthorized } from "../errors";
import { ACCESS_TOKEN_TTL_SECONDS, type AccessClaims } from "./tokens";

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
 *
 * The same statement reads the feed of changed memberships (`membership_changes`, ADR 0043): for each
 * membership changed or removed lately, its duties, house and version as they now stand. A member's
 * token names its membership and the version it was signed at (`mid`, `mv`); when the list holds a newer
 * version, the request is served with the membership as it stands (`liveStanding`), and the guard hands
 * the caller a token that says so. No request reads more than before: the two feeds share one read.
 *
 * And a third feed, of renamed accounts (`user_name_changes`, ADR 0053): the isolate keeps the display
 * names staff lists show beside their rows (`knownNames`, `keepNames`), and drops one when the feed brings
 * its id. A list of letters or guests then reads its page and nothing else on the platform database; a
 * new name shows in this isolate at once (`forgetUserNames`) and in others within FEED_TTL_MS.
 */
const FEED_TTL_MS = 5_000;
const FEED_OVERLAP = "-60 seconds";
/** A token lives 15 minutes (plus 30 s of clock skew); the feed keeps and reads back 20. */
const KEEP_MS = ACCESS_TOKEN_TTL_SECONDS * 1000 + 5 * 60 * 1000;
const FIRST_READ_WINDOW = "-20 minutes";
/** At most this many display names per isolate (about 100 bytes each); the oldest kept go first. */
const NAMES_KEPT = 5_000;
/**
 * An isolate that has not read the feed for this long forgets every name it keeps: the feed keeps a day
 * of renames, and an hour is far inside it.
 */
const NAMES_IDLE_MS = 60 * 60 * 1000;

/** A membership as the feed of changes last saw it. */
interface ChangedMembership {
  roles: Duty[];
  unitId: string | null;
  removed: boolean;
  version: number;
  /** When this isolate learnt of it (Date.now()), for pruning. */
  learnt: number;
}

interface Feed {
  /** Family id → when this isolate learnt it was ended (Date.now()), for pruning. */
  ended: Map<string, number>;
  /** Membership id → its newest change this isolate has read. */
  changed: Map<string, ChangedMembership>;
  /** How many times this isolate's own writes asked for a new read (`forgetMemberships`). */
  forgets: number;
  /** User id → display name, as read from `users` after the feed's last word on that id. */
  names: Map<string, string>;
  /** User id → the feed entry's time of its latest rename this isolate has read, for pruning by `learnt`. */
  renamed: Map<string, { at: string; learnt: number }>;
  /** Renames learnt (and names forgotten) so far: a read of names that saw it move keeps none of them. */
  renames: number;
  /** The platform database's time at the last read, or null before the first. */
  readAt: string | null;
  /** Date.now() when the list was last brought up to date (moved back to force a read). */
  checkedAt: number;
  /** Date.now() when the feed was last read (never moved back). */
  readDoneAt: number;
  reading: Promise<void> | null;
}

const feed: Feed = {
  ended: new Map(),
  changed: new Map(),
  forgets: 0,
  names: new Map(),
  renamed: new Map(),
  renames: 0,
  readAt: null,
  checkedAt: Number.NEGATIVE_INFINITY,
  readDoneAt: Number.NEGATIVE_INFINITY,
  reading: null,
};

const ISO_NOW = sql`strftime('%Y-%m-%dT%H:%M:%fZ', 'now')`;

interface FeedRow {
  /** Null for the marker row, `s` for an ended sign-in, `m` for a changed membership, `n` a renamed user. */
  kind: "s" | "m" | "n" | null;
  id: string | null;
  at: string;
  roles: string | null;
  unitId: string | null;
  removed: number | null;
  version: number | null;
}

const DUTY_NAMES = new Set<string>(DUTIES);

function dutiesOf(json: string | null): Duty[] {
  try {
    const parsed: unknown = JSON.parse(json ?? "[]");
    return Array.isArray(parsed) ? parsed.filter((d): d is Duty => DUTY_NAMES.has(d)) : [];
  } catch {
    return [];
  }
}

function learnChange(row: FeedRow, now: number): void {
  if (row.id === null || row.version === null) {
    return;
  }
  const known = feed.changed.get(row.id);
  if (known && known.version >= row.version) {
    return;
  }
  // Re-inserted, so the map's order stays the order learnt (pruning stops at the first one kept).
  feed.changed.delete(row.id);
  feed.changed.set(row.id, {
    roles: dutiesOf(row.roles),
    unitId: row.unitId,
    removed: row.removed === 1,
    version: row.version,
    learnt: now,
  });
}

function learnRename(row: FeedRow, now: number): void {
  if (row.id === null || feed.renamed.get(row.id)?.at === row.at) {
    return;
  }
  feed.renamed.delete(row.id);
  feed.renamed.set(row.id, { at: row.at, learnt: now });
  feed.names.delete(row.id);
  feed.renames += 1;
}

/**
 * The first row carries the database's own time (a marker with a null kind), then every family ended
 * and every membership changed since FEED_OVERLAP before the last read, or within FIRST_READ_WINDOW on
 * an isolate's first read, and every account renamed in that time: one statement, one round trip, for
 * the three feeds.
 */
async function readFeed(platform: PlatformDb): Promise<void> {
  const since = feed.readAt
    ? sql`strftime('%Y-%m-%dT%H:%M:%fZ', ${feed.readAt}, ${FEED_OVERLAP})`
    : sql`strftime('%Y-%m-%dT%H:%M:%fZ', 'now', ${FIRST_READ_WINDOW})`;
  const rows = await platform.all<FeedRow>(
    sql`SELECT NULL AS kind, NULL AS id, ${ISO_NOW} AS at, NULL AS roles, NULL AS unitId, NULL AS removed,
          NULL AS version
        UNION ALL
        SELECT 's', ${sessionRevocations.familyId}, ${sessionRevocations.at}, NULL, NULL, NULL, NULL
        FROM ${sessionRevocations} WHERE ${sessionRevocations.at} > ${since}
        UNION ALL
        SELECT 'm', ${membershipChanges.membershipId}, ${membershipChanges.at}, ${membershipChanges.roles},
          ${membershipChanges.unitId}, ${membershipChanges.removed}, ${membershipChanges.membershipVersion}
        FROM ${membershipChanges} WHERE ${membershipChanges.at} > ${since}
        UNION ALL
        SELECT 'n', ${userNameChanges.userId}, ${userNameChanges.at}, NULL, NULL, NULL, NULL
        FROM ${userNameChanges} WHERE ${userNameChanges.at} > ${since}`,
  );
  const now = Date.now();
  if (!(now - feed.readDoneAt < NAMES_IDLE_MS)) {
    forgetAllNames();
  }
  for (const row of rows) {
    if (row.kind === null) {
      feed.readAt = row.at;
    } else if (row.kind === "m") {
      learnChange(row, now);
    } else if (row.kind === "n") {
      learnRename(row, now);
    } else if (row.id !== null && !feed.ended.has(row.id)) {
      feed.ended.set(row.id, now);
    }
  }
  for (const [familyId, learnt] of feed.ended) {
    if (learnt > now - KEEP_MS) {
      break;
    }
    feed.ended.delete(familyId);
  }
  for (const [membershipId, change] of feed.changed) {
    if (change.learnt > now - KEEP_MS) {
      break;
    }
    feed.changed.delete(membershipId);
  }
  for (const [userId, rename] of feed.renamed) {
    if (rename.learnt > now - KEEP_MS) {
      break;
    }
    feed.renamed.delete(userId);
  }
  feed.checkedAt = now;
  feed.readDoneAt = now;
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

/**
 * Called by the code that changed or removed memberships, once its statement has run: this isolate
 * reads the feed again on its next check, so a token there is served as the membership now stands on
 * its very next request (and the change's own answer can carry a token that says so: `forgets`).
 */
export function forgetMemberships(): void {
  feed.forgets += 1;
  feed.checkedAt = Number.NEGATIVE_INFINITY;
}

/** How many times this isolate's writes have called `forgetMemberships`: a request compares before and after. */
export function membershipForgets(): number {
  return feed.forgets;
}

function forgetAllNames(): void {
  feed.names.clear();
  feed.renames += 1;
}

/**
 * Display names this isolate keeps, of those asked for, and the ids it does not know; `renames` is handed
 * back to `keepNames` with what a read of the missing ones found. The feed is brought up to date first
 * (no read when it is fresh, as it is inside any request that passed the access guard), so no name is
 * older than the feed's last word on it.
 */
export async function knownNames(
  platform: PlatformDb,
  ids: Iterable<string>,
): Promise<{ names: Map<string, string>; missing: string[]; renames: number }> {
  await upToDate(platform);
  const names = new Map<string, string>();
  const missing: string[] = [];
  for (const id of new Set(ids)) {
    const name = feed.names.get(id);
    if (name === undefined) {
      missing.push(id);
    } else {
      names.set(id, name);
    }
  }
  return { names, missing, renames: feed.renames };
}

/**
 * Keeps names read from `users`, unless a rename was learnt while they were read (`renames` moved since
 * `knownNames`): such a read may hold a name from before it, and the next request reads again.
 */
export function keepNames(read: ReadonlyMap<string, string>, renames: number): void {
  if (renames !== feed.renames) {
    return;
  }
  for (const [id, name] of read) {
    feed.names.delete(id);
    feed.names.set(id, name);
  }
  for (const id of feed.names.keys()) {
    if (feed.names.size <= NAMES_KEPT) {
      break;
    }
    feed.names.delete(id);
  }
}

/**
 * Called by the code that renamed (or removed) accounts, once its statement has run: this isolate shows
 * the new names at once; others within FEED_TTL_MS, when the feed brings the trigger's entries.
 */
export function forgetUserNames(ids: Iterable<string>): void {
  for (const id of ids) {
    feed.names.delete(id);
  }
  feed.renames += 1;
}

/** A member's duties and residency as the request is served, and the membership version they stand at. */
export interface Standing {
  roles: readonly Duty[];
  resident: boolean;
  /** Their house as the request is served; undefined when the token does not say (see `AccessClaims.unit`). */
  unitId?: string | null;
  /** The membership's version when newer than the token's, else null (the token says it all). */
  newer: number | null;
}

/**
 * The sign-in is live (else 401 `session_revoked`), and the member's standing as it is now: the token's
 * claims, unless the feed holds a newer version of its membership, whose duties and house then stand
 * (a removed membership is a sign-in that has ended). One up-to-date check serves both questions.
 */
export async function liveStanding(platform: PlatformDb, claims: AccessClaims): Promise<Standing> {
  await requireLiveSession(platform, claims.sid);
  const own = {
    roles: claims.roles as readonly Duty[],
    resident: claims.resident,
    newer: null,
    ...(claims.unit === undefined ? {} : { unitId: claims.unit }),
  };
  if (claims.mid === undefined || claims.tenant === null) {
    return own;
  }
  const change = feed.changed.get(claims.mid);
  if (!change || change.version <= (claims.mv ?? 0)) {
    return own;
  }
  if (change.removed) {
    throw new Unauthorized("session_revoked", "This membership has ended; sign in again.");
  }
  return {
    roles: change.roles,
    resident: isResident(change.roles, change.unitId),
    newer: change.version,
    unitId: change.unitId,
  };
}

/** An isolate's first check, for tests: the list forgotten, the next check reads FIRST_READ_WINDOW back. */
export function resetLivenessFeed(): void {
  feed.ended.clear();
  feed.changed.clear();
  feed.renamed.clear();
  forgetAllNames();
  feed.readAt = null;
  feed.checkedAt = Number.NEGATIVE_INFINITY;
  feed.readDoneAt = Number.NEGATIVE_INFINITY;
}
