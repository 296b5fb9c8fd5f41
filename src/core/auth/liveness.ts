import { and, eq, gt, isNull } from "drizzle-orm";
import { sessions } from "../db/platform-schema";
import type { PlatformDb } from "../env";
import { Unauthorized } from "../errors";
import { nowIso } from "../time";
import { ACCESS_TOKEN_TTL_SECONDS } from "./tokens";

/**
 * Whether the sign-in behind an access token (its `sid`, the refresh family) is still live: not
 * logged out, not revoked for reuse, not ended by a password reset. Every tenant and operator request
 * asks, reads included (issue 31, L3: bulk reads of personal data must stop with the sign-in), and so
 * does every identity route; only a `user`-scope read outside identity (a support file) skips it.
 * Answers are cached per isolate: a live answer for a few seconds (so a burst of writes costs one
 * lookup), a revoked one for a token's whole lifetime (revocation is final). An isolate that performs
 * the logout forgets its entry at once; other isolates see it within LIVE_TTL_MS.
 */
const LIVE_TTL_MS = 5_000;
const REVOKED_TTL_MS = ACCESS_TOKEN_TTL_SECONDS * 1000;
const MAX_ENTRIES = 10_000;
const cache = new Map<string, { live: boolean; until: number }>();

export function forgetSession(sid: string): void {
  cache.delete(sid);
}

async function isLive(platform: PlatformDb, sid: string): Promise<boolean> {
  const hit = cache.get(sid);
  if (hit && hit.until > Date.now()) {
    return hit.live;
  }
  const row = await platform
    .select({ id: sessions.id })
    .from(sessions)
    .where(and(eq(sessions.familyId, sid), isNull(sessions.revokedAt), gt(sessions.expiresAt, nowIso())))
    .limit(1)
    .get();
  const live = row !== undefined;
  if (cache.size >= MAX_ENTRIES) {
    const oldest = cache.keys().next().value;
    if (oldest !== undefined) {
      cache.delete(oldest);
    }
  }
  cache.set(sid, { live, until: Date.now() + (live ? LIVE_TTL_MS : REVOKED_TTL_MS) });
  return live;
}

export async function requireLiveSession(platform: PlatformDb, sid: string): Promise<void> {
  if (!(await isLive(platform, sid))) {
    throw new Unauthorized("session_revoked", "This sign-in has ended; sign in again.");
  }
}
