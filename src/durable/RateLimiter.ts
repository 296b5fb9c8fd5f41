import { DurableObject } from "cloudflare:workers";

/**
 * A soft limit on failures (sign-in attempts on one account): up to `threshold` failures in the window
 * cost nothing; after that each attempt waits `baseDelaySeconds`, doubled per further failure and
 * capped at `maxDelaySeconds`, counted from the latest failure.
 */
export interface FailurePolicy {
  threshold: number;
  windowSeconds: number;
  baseDelaySeconds: number;
  maxDelaySeconds: number;
}

export interface FailureDecision {
  allowed: boolean;
  retryAfter: number;
  /** The attempt's row, to pass to `succeeded` when it turns out right; 0 when refused. */
  attemptId: number;
}

export interface RateDecision {
  allowed: boolean;
  /** Seconds until the next attempt would be allowed; 0 when allowed. */
  retryAfter: number;
  remaining: number;
}

const TABLES = {
  hits: "CREATE TABLE IF NOT EXISTS hits (at INTEGER NOT NULL)",
  spends: "CREATE TABLE IF NOT EXISTS spends (at INTEGER NOT NULL, amount INTEGER NOT NULL)",
  failures:
    "CREATE TABLE IF NOT EXISTS failures (id INTEGER PRIMARY KEY AUTOINCREMENT, at INTEGER NOT NULL, source TEXT NOT NULL)",
} as const;

/**
 * One sliding-window log per key (`<policy>:<subject>`, e.g. a hashed email or an IP). Each hit is
 * decided inside one synchronous SQLite section, with no `await` between the count and the insert, so
 * concurrent attempts from many isolates are serialised here and none slips past the limit (an in-memory
 * map per isolate would let every isolate allow `limit` attempts). Refused attempts are not logged, so a
 * client that keeps hammering is let in again as soon as its oldest allowed attempt leaves the window.
 *
 * Cheap per call (ADR 0015): an object creates only the table its policy uses (a per-IP counter never
 * needed the failures table), and its clean-up alarm is written once per window rather than on every
 * hit: it is set a whole window later than the latest row needs, and only moved when a new row would
 * outlive it, so the alarm never deletes a row still inside its window.
 */
export class RateLimiter extends DurableObject {
  /** Tables this instance has created (the alarm's `deleteAll` drops them, so it forgets them too). */
  private readonly ready = new Set<keyof typeof TABLES>();
  /** The clean-up alarm this instance last set; null when it does not know (new instance, after clean-up). */
  private alarmAt: number | null = null;

  private table(name: keyof typeof TABLES): SqlStorage {
    const sql = this.ctx.storage.sql;
    if (!this.ready.has(name)) {
      sql.exec(TABLES[name]);
      this.ready.add(name);
    }
    return sql;
  }

  /** Keeps the object's rows until at least `until`: idle limiters clean themselves up after that. */
  private async keepUntil(now: number, until: number): Promise<void> {
    if (this.alarmAt !== null && this.alarmAt >= until) {
      return;
    }
    const at = until + (until - now);
    await this.ctx.storage.setAlarm(at);
    this.alarmAt = at;
  }

  /**
   * One attempt against a failure budget (one object per account). Every attempt is written as a
   * failure before the caller checks the password, and `succeeded` takes it back, so a burst of
   * concurrent guesses is counted in full. While the delay runs, only sources (hashed IPs) that have
   * failed here in the window wait: someone else who knows the password, from another address, is let
   * through, so an attacker's failures cannot lock the owner out.
   */
  async attempt(source: string, policy: FailurePolicy): Promise<FailureDecision> {
    const now = Date.now();
    const windowMs = policy.windowSeconds * 1000;
    const sql = this.table("failures");
    sql.exec("DELETE FROM failures WHERE at <= ?", now - windowMs);
    const row = sql
      .exec<{ n: number; latest: number | null }>("SELECT COUNT(*) AS n, MAX(at) AS latest FROM failures")
      .one();
    if (row.n >= policy.threshold && row.latest !== null) {
      const delayMs =
        Math.min(policy.maxDelaySeconds, policy.baseDelaySeconds * 2 ** (row.n - policy.threshold)) * 1000;
      const until = row.latest + delayMs;
      const failedBefore =
        sql.exec<{ n: number }>("SELECT COUNT(*) AS n FROM failures WHERE source = ?", source).one().n > 0;
      if (now < until && failedBefore) {
        return { allowed: false, retryAfter: Math.max(1, Math.ceil((until - now) / 1000)), attemptId: 0 };
      }
    }
    const inserted = sql
      .exec<{ id: number }>("INSERT INTO failures (at, source) VALUES (?, ?) RETURNING id", now, source)
      .one();
    await this.keepUntil(now, now + windowMs + 1000);
    return { allowed: true, retryAfter: 0, attemptId: inserted.id };
  }

  /** The attempt was right: it is no failure, and that source's earlier typos are forgiven. */
  async succeeded(attemptId: number, source: string): Promise<void> {
    this.table("failures").exec("DELETE FROM failures WHERE id = ? OR source = ?", attemptId, source);
  }

  /**
   * One attempt against a count per window. `at` is the caller's clock (ctx.now(), which tests set), so
   * a quota's reset is tested without waiting; the clean-up alarm stays on this object's own clock, so a
   * test clock set in the past cannot make it fire at once and wipe the log.
   */
  async hit(limit: number, windowSeconds: number, at?: number): Promise<RateDecision> {
    const now = at ?? Date.now();
    const windowMs = windowSeconds * 1000;
    const sql = this.table("hits");
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
    await this.keepUntil(Date.now(), Date.now() + windowMs + 1000);
    return { allowed: true, retryAfter: 0, remaining: limit - row.n - 1 };
  }

  /**
   * Like `hit`, but each attempt costs `amount` (bytes of an upload) against a budget of `limit` per
   * window. A refused attempt is told when enough of the oldest spending leaves the window for it to
   * fit; one larger than the whole budget never fits and is told the full window.
   */
  async spend(amount: number, limit: number, windowSeconds: number, at?: number): Promise<RateDecision> {
    const now = at ?? Date.now();
    const windowMs = windowSeconds * 1000;
    const sql = this.table("spends");
    sql.exec("DELETE FROM spends WHERE at <= ?", now - windowMs);
    const spent =
      sql.exec<{ total: number | null }>("SELECT SUM(amount) AS total FROM spends").one().total ?? 0;
    if (spent + amount > limit) {
      let freed = 0;
      let fitsAt = now + windowMs;
      for (const row of sql.exec<{ at: number; amount: number }>(
        "SELECT at, amount FROM spends ORDER BY at",
      )) {
        freed += row.amount;
        if (spent - freed + amount <= limit) {
          fitsAt = row.at + windowMs;
          break;
        }
      }
      return { allowed: false, retryAfter: Math.max(1, Math.ceil((fitsAt - now) / 1000)), remaining: 0 };
    }
    sql.exec("INSERT INTO spends (at, amount) VALUES (?, ?)", now, amount);
    await this.keepUntil(Date.now(), Date.now() + windowMs + 1000);
    return { allowed: true, retryAfter: 0, remaining: limit - spent - amount };
  }

  override async alarm(): Promise<void> {
    await this.ctx.storage.deleteAll();
    this.ready.clear();
    this.alarmAt = null;
  }
}
