import { DurableObject } from "cloudflare:workers";

export interface RateDecision {
  allowed: boolean;
  /** Seconds until the next attempt would be allowed; 0 when allowed. */
  retryAfter: number;
  remaining: number;
}

/**
 * One sliding-window log per key (`<policy>:<subject>`, e.g. a hashed email or an IP). Each hit is
 * decided inside one synchronous SQLite section, with no `await` between the count and the insert, so
 * concurrent attempts from many isolates are serialised here and none slips past the limit (an in-memory
 * map per isolate would let every isolate allow `limit` attempts). Refused attempts are not logged, so a
 * client that keeps hammering is let in again as soon as its oldest allowed attempt leaves the window.
 */
export class RateLimiter extends DurableObject {
  constructor(ctx: DurableObjectState, env: unknown) {
    super(ctx, env as never);
    ctx.storage.sql.exec("CREATE TABLE IF NOT EXISTS hits (at INTEGER NOT NULL)");
  }

  async hit(limit: number, windowSeconds: number): Promise<RateDecision> {
    const now = Date.now();
    const windowMs = windowSeconds * 1000;
    const sql = this.ctx.storage.sql;
    sql.exec("DELETE FROM hits WHERE at <= ?", now - windowMs);
    const row = sql
      .exec<{ n: number; oldest: number | null }>("SELECT COUNT(*) AS n, MIN(at) AS oldest FROM hits")
      .one();
    if (row.n >= limit) {
      const oldest = row.oldest ?? now;
      return {
        allowed: false,
        retryAfter: Math.max(1, Math.ceil((oldest + windowMs - now) / 1000)),
        remaining: 0,
      };
    }
    sql.exec("INSERT INTO hits (at) VALUES (?)", now);
    // Idle limiters clean themselves up, so one object per email or IP does not keep storage forever.
    await this.ctx.storage.setAlarm(now + windowMs + 1000);
    return { allowed: true, retryAfter: 0, remaining: limit - row.n - 1 };
  }

  override async alarm(): Promise<void> {
    await this.ctx.storage.deleteAll();
  }
}
