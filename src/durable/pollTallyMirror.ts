import type { Bindings } from "../core/env";
import { log } from "../core/http/log";
import { objectTenantCtx } from "../core/jobs";
import { mirrorTally } from "../modules/musyawarah/service";
import { type Live, snapshotOf } from "./pollTallyTypes";

const MIRROR_RETRY_MS = 2_000;
const MIRROR_RETRY_MAX_MS = 60_000;
/**
 * At most one copy to the tenant database this often while votes keep coming: the first vote after a
 * quiet spell is copied at once; a burst shares one copy per interval instead of copying back to back.
 */
const MIRROR_INTERVAL_MS = 500;

/** What the copy needs of its poll's object: its storage, its bindings and its state. */
export interface MirrorHost {
  readonly sql: SqlStorage;
  readonly storage: DurableObjectStorage;
  readonly env: Bindings;
  state(): Live | null;
  setMeta(key: string, value: string): void;
}

/**
 * Copies a poll's tally to the tenant database (absolute counts with a sequence number, so a retried
 * or reordered copy never doubles or rolls back), spaced during bursts and retried with a backoff from
 * the object's alarm until it lands. The object stays the authority; this holds only timing state.
 */
export class TallyMirror {
  private mirroring: Promise<void> | null = null;
  /**
   * The alarm is set to copy ballots to the tenant database now (or to retry a failed copy), so a
   * further vote need not set it again. A new instance starts false and sets it again: harmless.
   */
  private due = false;
  /** Consecutive failed copies, for the retry backoff. */
  private retries = 0;
  /** When the latest copy started (this instance), to space copies during a burst. */
  private lastCopyAt = 0;

  constructor(private readonly host: MirrorHost) {}

  /**
   * The alarm's copy: one per run (joining one in flight). Ballots that arrive during it are copied by
   * the next run, at most one interval after this one started, so a burst costs one copy per interval.
   */
  async onAlarm(): Promise<void> {
    this.due = true;
    await this.safely(async () => {
      while (this.mirroring) {
        await this.mirroring;
      }
      if (!this.mirrored()) {
        await this.copy();
      }
    });
  }

  /** Copies until the tenant database reflects this moment's state (the secretariat's close waits on it). */
  async untilCopied(): Promise<void> {
    await this.safely(() => this.untilMirrored());
  }

  /**
   * Asks for a copy to the tenant database as soon as possible, without waiting for it. The alarm is
   * written with the ballot (same storage, same output gate), so a ballot never exists without its
   * pending copy, even if the object is evicted right after answering. Only the first ballot after a
   * copy sets it: the rest of a burst finds it due and writes nothing more.
   */
  schedule(): void {
    if (this.due) {
      return;
    }
    this.due = true;
    void this.host.storage.setAlarm(this.nextCopyAt());
  }

  private nextCopyAt(): number {
    return Math.max(Date.now(), this.lastCopyAt + MIRROR_INTERVAL_MS);
  }

  /**
   * Copies (by default until the tenant database is up to date); on failure keeps the ballots (this
   * object is the authority) and retries from the alarm with a backoff.
   */
  private async safely(copy: () => Promise<void>): Promise<void> {
    try {
      await copy();
    } catch (error) {
      this.retries += 1;
      const delay = Math.min(MIRROR_RETRY_MS * 2 ** Math.min(this.retries - 1, 6), MIRROR_RETRY_MAX_MS);
      log("warn", "poll_mirror_failed", {
        poll: this.host.state()?.config.pollId,
        retryInMs: delay,
        error: String(error),
      });
      this.due = true;
      await this.host.storage.setAlarm(Date.now() + delay);
      return;
    }
    this.retries = 0;
    if (!this.mirrored()) {
      // Votes came in during the copy: the next copy follows one interval after this one.
      this.due = true;
      await this.host.storage.setAlarm(this.nextCopyAt());
      return;
    }
    // Synchronous from the `mirrored()` check: nothing is left to copy, so the alarm goes back to
    // closing the poll at endsAt (or away, once closed).
    this.due = false;
    const live = this.host.state();
    if (live && live.status === "aktif") {
      await this.host.storage.setAlarm(Date.parse(live.config.endsAt));
    }
  }

  private mirrored(): boolean {
    const live = this.host.state();
    return !live || (live.mirroredSeq === live.seq && live.mirroredStatus === live.status);
  }

  /**
   * Waits until the tenant database reflects at least this moment's state (closing uses it). Concurrent
   * callers share one write in flight and at most one after it.
   */
  private async untilMirrored(): Promise<void> {
    while (!this.mirrored()) {
      if (this.mirroring) {
        await this.mirroring;
        continue;
      }
      await this.copy();
    }
  }

  private async copy(): Promise<void> {
    this.lastCopyAt = Date.now();
    this.mirroring = this.copyOnce().finally(() => {
      this.mirroring = null;
    });
    await this.mirroring;
  }

  private async copyOnce(): Promise<void> {
    const live = this.host.state();
    if (!live) {
      return;
    }
    const { config } = live;
    const snap = snapshotOf(live);
    const voters = this.host.sql
      .exec<{ voter_key: string; user_id: string; cast_at: string }>(
        "SELECT voter_key, user_id, cast_at FROM ballots WHERE seq > ? AND seq <= ? ORDER BY seq",
        live.mirroredSeq,
        snap.seq,
      )
      .toArray();
    // The SQL is musyawarah's (drizzle, so a renamed column breaks the build, not the mirror). No flag
    // check: ballots accepted before musyawarah was switched off (or the tenant suspended) still land.
    const ctx = await objectTenantCtx(this.host.env, config.tenantSlug, "poll-mirror");
    await mirrorTally({
      ctx,
      input: {
        pollId: config.pollId,
        counts: snap.counts,
        ballots: snap.ballots,
        seq: snap.seq,
        status: snap.status,
        voters: voters.map((v) => ({ voterKey: v.voter_key, userId: v.user_id, votedAt: v.cast_at })),
      },
    });
    this.host.setMeta("mirroredSeq", String(snap.seq));
    this.host.setMeta("mirroredStatus", snap.status);
    live.mirroredSeq = snap.seq;
    live.mirroredStatus = snap.status;
  }
}
