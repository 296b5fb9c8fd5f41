import { DurableObject } from "cloudflare:workers";
import type { Bindings } from "../core/env";
import { log } from "../core/http/log";
import { systemTenantCtx } from "../core/tenancy/contexts";
import { mirrorTally } from "../modules/musyawarah/service";

/**
 * The authority for one poll's ballots and counts. Every vote is decided and recorded inside one
 * synchronous SQLite transaction (no `await` between the duplicate check and the write), so concurrent
 * ballots are serialised: none is lost, none counts twice. Counts and the list of who voted are then
 * mirrored to the tenant database with absolute values and a sequence number, so a retried or reordered
 * mirror write can never double or roll back anything.
 *
 * Anonymous polls store who voted (to refuse a second ballot) and the per-option counts, and nothing
 * that links the two: ballots keep no choices, counts keep no history, and nothing is logged about choices.
 */
export interface TallyConfig {
  /**
   * The tenant the mirror writes to, resolved by `systemTenantCtx` like any tenant. Configs stored by
   * earlier versions also hold the tenant's database `slot`; it is no longer read (they hold the slug too).
   */
  tenantSlug: string;
  pollId: string;
  optionIds: string[];
  multipleChoice: boolean;
  maxChoices: number;
  anonymous: boolean;
  startsAt: string;
  endsAt: string;
  /** Voter keys taken when the poll opened: `user:<id>` or, for household polls, `unit:<id>`. */
  eligible: string[];
}

export type VoteRefusal =
  | "already_voted"
  | "poll_not_open"
  | "poll_not_started"
  | "poll_ended"
  | "poll_closed"
  | "not_eligible"
  | "invalid_choice";

export interface TallySnapshot {
  status: "aktif" | "ditutup" | "unconfigured";
  counts: Record<string, number>;
  ballots: number;
  eligible: number;
  seq: number;
}

export type VoteResult = ({ ok: true } & TallySnapshot) | { ok: false; code: VoteRefusal };

export interface BallotRow {
  voterKey: string;
  userId: string;
  optionIds: string[] | null;
  castAt: string;
}

const MIRROR_RETRY_MS = 2_000;
const MIRROR_RETRY_MAX_MS = 60_000;

export class PollTally extends DurableObject<Bindings> {
  private readonly sql: SqlStorage;
  private mirroring: Promise<void> | null = null;
  /**
   * The alarm is set to copy ballots to the tenant database now (or to retry a failed copy), so a
   * further vote need not set it again. A new instance starts false and sets it again: harmless.
   */
  private mirrorDue = false;
  /** Consecutive failed copies, for the retry backoff. */
  private retries = 0;
  /**
   * Facts read once per instance: the configuration never changes after `open`, and neither does the
   * set of eligible voters. (Status, ballots and counts change and are always read from storage.)
   */
  private configCache: TallyConfig | null = null;
  private eligibleCount: number | null = null;

  constructor(ctx: DurableObjectState, env: Bindings) {
    super(ctx, env);
    this.sql = ctx.storage.sql;
    this.sql.exec(`
      CREATE TABLE IF NOT EXISTS meta (key TEXT PRIMARY KEY, value TEXT NOT NULL);
      CREATE TABLE IF NOT EXISTS eligible (voter_key TEXT PRIMARY KEY);
      CREATE TABLE IF NOT EXISTS ballots (
        voter_key TEXT PRIMARY KEY, user_id TEXT NOT NULL, choices TEXT, cast_at TEXT NOT NULL,
        seq INTEGER NOT NULL UNIQUE);
      CREATE TABLE IF NOT EXISTS counts (option_id TEXT PRIMARY KEY, count INTEGER NOT NULL);
    `);
  }

  private meta(key: string): string | null {
    const row = this.sql.exec<{ value: string }>("SELECT value FROM meta WHERE key = ?", key).toArray()[0];
    return row?.value ?? null;
  }

  private setMeta(key: string, value: string): void {
    this.sql.exec(
      "INSERT INTO meta (key, value) VALUES (?, ?) ON CONFLICT(key) DO UPDATE SET value = excluded.value",
      key,
      value,
    );
  }

  private config(): TallyConfig | null {
    if (!this.configCache) {
      const raw = this.meta("config");
      this.configCache = raw ? (JSON.parse(raw) as TallyConfig) : null;
    }
    return this.configCache;
  }

  private eligibleVoters(): number {
    this.eligibleCount ??= this.sql.exec<{ n: number }>("SELECT COUNT(*) AS n FROM eligible").one().n;
    return this.eligibleCount;
  }

  private maxSeq(): number {
    return this.sql.exec<{ seq: number }>("SELECT COALESCE(MAX(seq), 0) AS seq FROM ballots").one().seq;
  }

  private current(): TallySnapshot {
    const status = (this.meta("status") as "aktif" | "ditutup" | null) ?? "unconfigured";
    const counts: Record<string, number> = {};
    for (const row of this.sql.exec<{ option_id: string; count: number }>(
      "SELECT option_id, count FROM counts",
    )) {
      counts[row.option_id] = row.count;
    }
    // Ballots get seq = 1, 2, 3 … in their transactions and are never removed one by one, so the
    // highest seq is the ballot count: one index lookup instead of counting every ballot on every vote.
    const seq = this.maxSeq();
    return { status, counts, ballots: seq, eligible: this.eligibleVoters(), seq };
  }

  /** Opens the poll. Idempotent: a repeated publish (a retried request) keeps the first configuration. */
  async open(config: TallyConfig): Promise<TallySnapshot> {
    if (!this.config()) {
      this.ctx.storage.transactionSync(() => {
        this.setMeta("config", JSON.stringify({ ...config, eligible: [] }));
        this.setMeta("status", "aktif");
        for (const id of config.optionIds) {
          this.sql.exec("INSERT OR IGNORE INTO counts (option_id, count) VALUES (?, 0)", id);
        }
        for (const key of config.eligible) {
          this.sql.exec("INSERT OR IGNORE INTO eligible (voter_key) VALUES (?)", key);
        }
      });
      this.configCache = null;
      this.eligibleCount = null;
      await this.ctx.storage.setAlarm(new Date(config.endsAt).getTime());
    }
    return this.current();
  }

  private decide(config: TallyConfig, optionIds: string[], now: number): VoteRefusal | null {
    const status = this.meta("status");
    if (status === "ditutup") {
      return "poll_closed";
    }
    if (now < new Date(config.startsAt).getTime()) {
      return "poll_not_started";
    }
    if (now >= new Date(config.endsAt).getTime()) {
      return "poll_ended";
    }
    const distinct = new Set(optionIds);
    const limit = config.multipleChoice ? config.maxChoices : 1;
    if (
      distinct.size !== optionIds.length ||
      optionIds.length < 1 ||
      optionIds.length > limit ||
      optionIds.some((id) => !config.optionIds.includes(id))
    ) {
      return "invalid_choice";
    }
    return null;
  }

  async vote(input: {
    voterKey: string;
    userId: string;
    optionIds: string[];
    now?: number;
  }): Promise<VoteResult> {
    const config = this.config();
    if (!config) {
      return { ok: false, code: "poll_not_open" };
    }
    const refusal = this.decide(config, input.optionIds, input.now ?? Date.now());
    if (refusal) {
      return { ok: false, code: refusal };
    }
    // Synchronous from here to the commit: no other request can interleave with this ballot.
    const outcome = this.ctx.storage.transactionSync((): VoteRefusal | number => {
      if (!this.sql.exec("SELECT 1 FROM eligible WHERE voter_key = ?", input.voterKey).toArray().length) {
        return "not_eligible";
      }
      const seq = this.maxSeq() + 1;
      const inserted = this.sql
        .exec(
          "INSERT INTO ballots (voter_key, user_id, choices, cast_at, seq) VALUES (?, ?, ?, ?, ?) ON CONFLICT(voter_key) DO NOTHING RETURNING seq",
          input.voterKey,
          input.userId,
          config.anonymous ? null : JSON.stringify(input.optionIds),
          new Date().toISOString(),
          seq,
        )
        .toArray();
      if (!inserted.length) {
        return "already_voted";
      }
      for (const id of input.optionIds) {
        this.sql.exec("UPDATE counts SET count = count + 1 WHERE option_id = ?", id);
      }
      return seq;
    });
    if (typeof outcome === "string") {
      return { ok: false, code: outcome };
    }
    // The ballot is durable once this object's storage commits it (the answer waits for that through
    // the output gate); the copy to the tenant database follows from the alarm, after the answer.
    this.scheduleMirror();
    return { ok: true, ...this.current() };
  }

  async close(): Promise<TallySnapshot> {
    if (this.config() && this.meta("status") !== "ditutup") {
      this.setMeta("status", "ditutup");
    }
    await this.mirrorSafely();
    return this.current();
  }

  async snapshot(): Promise<TallySnapshot> {
    return this.current();
  }

  async hasVoted(voterKey: string): Promise<boolean> {
    return this.sql.exec("SELECT 1 FROM ballots WHERE voter_key = ?", voterKey).toArray().length > 0;
  }

  async ballotList(): Promise<BallotRow[]> {
    return this.sql
      .exec<{ voter_key: string; user_id: string; choices: string | null; cast_at: string }>(
        "SELECT voter_key, user_id, choices, cast_at FROM ballots ORDER BY seq",
      )
      .toArray()
      .map((r) => ({
        voterKey: r.voter_key,
        userId: r.user_id,
        optionIds: r.choices ? (JSON.parse(r.choices) as string[]) : null,
        castAt: r.cast_at,
      }));
  }

  /** Forgets a poll that has no ballots (its deletion); refuses once anyone has voted. */
  async destroy(): Promise<boolean> {
    if (this.maxSeq() > 0) {
      return false;
    }
    await this.ctx.storage.deleteAlarm();
    await this.ctx.storage.deleteAll();
    this.configCache = null;
    this.eligibleCount = null;
    return true;
  }

  /**
   * Closes the poll at `endsAt`, and copies the tally to the tenant database after votes. A failed
   * copy is retried from the alarm until it lands (the copy is absolute and idempotent); once the
   * database is up to date, the alarm goes back to `endsAt` while the poll is open.
   */
  override async alarm(): Promise<void> {
    const config = this.config();
    if (!config) {
      return;
    }
    if (this.meta("status") === "aktif" && Date.now() >= new Date(config.endsAt).getTime()) {
      this.setMeta("status", "ditutup");
    }
    // This run takes every ballot committed before its copy settles; a vote during it that is not
    // yet copied when it settles is caught by the loop in `mirror`.
    this.mirrorDue = true;
    await this.mirrorSafely();
  }

  /**
   * Asks for a copy to the tenant database as soon as possible, without waiting for it. The alarm is
   * written with the ballot (same storage, same output gate), so a ballot never exists without its
   * pending copy, even if the object is evicted right after answering.
   */
  private scheduleMirror(): void {
    if (this.mirrorDue) {
      return;
    }
    this.mirrorDue = true;
    void this.ctx.storage.setAlarm(Date.now());
  }

  /** Mirrors now; on failure keeps the vote (this object is the authority) and retries from the alarm. */
  private async mirrorSafely(): Promise<void> {
    try {
      await this.mirror();
    } catch (error) {
      this.retries += 1;
      const delay = Math.min(MIRROR_RETRY_MS * 2 ** Math.min(this.retries - 1, 6), MIRROR_RETRY_MAX_MS);
      log("warn", "poll_mirror_failed", {
        poll: this.config()?.pollId,
        retryInMs: delay,
        error: String(error),
      });
      this.mirrorDue = true;
      await this.ctx.storage.setAlarm(Date.now() + delay);
      return;
    }
    // Synchronous from the last `mirrored()` check: nothing is left to copy, so the alarm goes back to
    // closing the poll at endsAt (or away, once closed).
    this.retries = 0;
    this.mirrorDue = false;
    const config = this.config();
    if (config && this.meta("status") === "aktif") {
      await this.ctx.storage.setAlarm(new Date(config.endsAt).getTime());
    }
  }

  private mirrored(): boolean {
    return (
      this.meta("mirroredSeq") === String(this.maxSeq()) &&
      this.meta("mirroredStatus") === this.meta("status")
    );
  }

  /**
   * Waits until the tenant database reflects at least this moment's state. Concurrent callers share
   * one write in flight and at most one after it, so a burst of votes costs a handful of D1 writes.
   */
  private async mirror(): Promise<void> {
    while (!this.mirrored()) {
      if (this.mirroring) {
        await this.mirroring;
        continue;
      }
      this.mirroring = this.mirrorOnce().finally(() => {
        this.mirroring = null;
      });
      await this.mirroring;
    }
  }

  private async mirrorOnce(): Promise<void> {
    const config = this.config();
    if (!config) {
      return;
    }
    const snap = this.current();
    const from = Number(this.meta("mirroredSeq") ?? "0");
    const voters = this.sql
      .exec<{ voter_key: string; user_id: string; cast_at: string }>(
        "SELECT voter_key, user_id, cast_at FROM ballots WHERE seq > ? AND seq <= ? ORDER BY seq",
        from,
        snap.seq,
      )
      .toArray();
    // The SQL is musyawarah's (drizzle, so a renamed column breaks the build, not the mirror). No flag
    // check: ballots accepted before musyawarah was switched off (or the tenant suspended) still land.
    const ctx = await systemTenantCtx(this.env, config.tenantSlug, "poll-mirror");
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
    this.setMeta("mirroredSeq", String(snap.seq));
    this.setMeta("mirroredStatus", snap.status);
  }
}
