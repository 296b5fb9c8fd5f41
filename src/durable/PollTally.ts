import { DurableObject } from "cloudflare:workers";
import type { Bindings } from "../core/env";
import { log } from "../core/http/log";
import { objectTenantCtx } from "../core/jobs";
import { mirrorTally, publishedPoll } from "../modules/musyawarah/service";

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
/**
 * What a vote's answer shows of the poll: its row as published (frozen from then on; only its status,
 * counts and closing change, and those the object holds itself). With it the vote path reads nothing
 * from the tenant database (ADR 0005).
 */
export interface PollCard {
  id: string;
  title: string;
  description: string | null;
  options: { id: string; label: string }[];
  startsAt: string;
  endsAt: string;
  quorumKind: "percent" | "count" | null;
  quorumValue: number | null;
  anonymous: boolean;
  multipleChoice: boolean;
  maxChoices: number;
  voterScope: "warga" | "kk";
  resultsVisibility: "always" | "after_close";
  eligibleVoters: number | null;
  createdAt: string;
  updatedAt: string;
  openedAt: string | null;
}

export interface TallyConfig {
  /**
   * The tenant the mirror writes to, resolved by core's `objectTenantCtx` like any tenant. Configs stored by
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
  /**
   * The published poll, for the vote's answer. Objects opened by earlier versions lack it and read it
   * once from the tenant database on their first vote (`card()`).
   */
  poll?: PollCard;
}

export type VoteRefusal =
  | "already_voted"
  | "poll_not_open"
  | "poll_not_started"
  | "poll_ended"
  | "poll_closed"
  | "not_eligible"
  | "invalid_choice"
  /** No published poll here: an unknown id, a draft, or a deleted poll. */
  | "not_found"
  /** A household poll asked without the voter's unit: the caller reads it and asks again. */
  | "needs_household"
  /** A household poll, and the voter has no unit. */
  | "no_household";

export interface TallySnapshot {
  status: "aktif" | "ditutup" | "unconfigured";
  counts: Record<string, number>;
  ballots: number;
  eligible: number;
  seq: number;
}

export type VoteResult =
  | ({ ok: true; poll: PollCard; castAt: string } & TallySnapshot)
  | { ok: false; code: VoteRefusal };

export interface VoteInput {
  userId: string;
  optionIds: string[];
  /**
   * The voter's housing unit, for household (`kk`) polls: a string, `null` when they have none, or
   * absent when the caller does not know the poll's scope (then a household poll answers
   * `needs_household`). Personal polls ignore it.
   */
  unitId?: string | null;
  /** An explicit ballot key (tests); by default derived from the poll's scope. */
  voterKey?: string;
  now?: number;
}

export interface BallotRow {
  voterKey: string;
  userId: string;
  optionIds: string[] | null;
  castAt: string;
}

/**
 * Everything a vote needs, held in memory and loaded once per instance: the configuration (immutable
 * after `open`), the status, the per-option counts, the highest ballot sequence and the number of
 * eligible voters. Storage stays the authority: these change only after the transaction that wrote
 * them committed, and a new instance (after eviction or a crash) loads them again.
 */
interface Live {
  config: TallyConfig;
  status: "aktif" | "ditutup";
  counts: Record<string, number>;
  seq: number;
  eligible: number;
  mirroredSeq: number;
  mirroredStatus: string | null;
}

const MIRROR_RETRY_MS = 2_000;
const MIRROR_RETRY_MAX_MS = 60_000;
/**
 * At most one copy to the tenant database this often while votes keep coming: the first vote after a
 * quiet spell is copied at once; a burst shares one copy per interval instead of copying back to back.
 */
const MIRROR_INTERVAL_MS = 500;

const SCHEMA = `
  CREATE TABLE IF NOT EXISTS meta (key TEXT PRIMARY KEY, value TEXT NOT NULL);
  CREATE TABLE IF NOT EXISTS eligible (voter_key TEXT PRIMARY KEY);
  CREATE TABLE IF NOT EXISTS ballots (
    voter_key TEXT PRIMARY KEY, user_id TEXT NOT NULL, choices TEXT, cast_at TEXT NOT NULL,
    seq INTEGER NOT NULL UNIQUE);
  CREATE TABLE IF NOT EXISTS counts (option_id TEXT PRIMARY KEY, count INTEGER NOT NULL);
`;

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
  /** When the latest copy started (this instance), to space copies during a burst. */
  private lastCopyAt = 0;
  /** `undefined` until loaded; `null` while no poll is open here (unknown id, draft, deleted). */
  private live: Live | null | undefined;
  /** A legacy configuration's poll card being read from the tenant database (shared by concurrent votes). */
  private cardLoading: Promise<PollCard> | null = null;

  constructor(ctx: DurableObjectState, env: Bindings) {
    super(ctx, env);
    // No schema here: an object nobody opened (a vote on an unknown id) must not write anything.
    this.sql = ctx.storage.sql;
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

  /** The poll's state, read from storage once per instance; `null` when no poll was opened here. */
  private state(): Live | null {
    if (this.live !== undefined) {
      return this.live;
    }
    const opened =
      this.sql.exec("SELECT 1 FROM sqlite_master WHERE type = 'table' AND name = 'meta'").toArray().length >
      0;
    const raw = opened ? this.meta("config") : null;
    if (!raw) {
      this.live = null;
      return null;
    }
    const counts: Record<string, number> = {};
    for (const row of this.sql.exec<{ option_id: string; count: number }>(
      "SELECT option_id, count FROM counts",
    )) {
      counts[row.option_id] = row.count;
    }
    this.live = {
      config: JSON.parse(raw) as TallyConfig,
      status: this.meta("status") === "ditutup" ? "ditutup" : "aktif",
      counts,
      // Ballots get seq = 1, 2, 3 … in their transactions and are never removed one by one, so the
      // highest seq is the ballot count.
      seq: this.sql.exec<{ seq: number }>("SELECT COALESCE(MAX(seq), 0) AS seq FROM ballots").one().seq,
      eligible: this.sql.exec<{ n: number }>("SELECT COUNT(*) AS n FROM eligible").one().n,
      mirroredSeq: Number(this.meta("mirroredSeq") ?? "0"),
      mirroredStatus: this.meta("mirroredStatus"),
    };
    return this.live;
  }

  private snapshotOf(live: Live | null): TallySnapshot {
    if (!live) {
      return { status: "unconfigured", counts: {}, ballots: 0, eligible: 0, seq: 0 };
    }
    return {
      status: live.status,
      counts: { ...live.counts },
      ballots: live.seq,
      eligible: live.eligible,
      seq: live.seq,
    };
  }

  /** Opens the poll. Idempotent: a repeated publish (a retried request) keeps the first configuration. */
  async open(config: TallyConfig): Promise<TallySnapshot> {
    if (!this.state()) {
      this.ctx.storage.transactionSync(() => {
        this.sql.exec(SCHEMA);
        this.setMeta("config", JSON.stringify({ ...config, eligible: [] }));
        this.setMeta("status", "aktif");
        for (const id of config.optionIds) {
          this.sql.exec("INSERT OR IGNORE INTO counts (option_id, count) VALUES (?, 0)", id);
        }
        for (const key of config.eligible) {
          this.sql.exec("INSERT OR IGNORE INTO eligible (voter_key) VALUES (?)", key);
        }
      });
      this.live = undefined;
      await this.ctx.storage.setAlarm(new Date(config.endsAt).getTime());
    }
    return this.snapshotOf(this.state());
  }

  /**
   * The poll as published. Objects opened before the card was stored read it once from the tenant
   * database and keep it (it is frozen once published).
   */
  private async card(live: Live): Promise<PollCard> {
    if (live.config.poll) {
      return live.config.poll;
    }
    this.cardLoading ??= (async () => {
      const ctx = await objectTenantCtx(this.env, live.config.tenantSlug, "poll-card");
      const card = await publishedPoll({ ctx, id: live.config.pollId });
      if (!card) {
        throw new Error(`poll ${live.config.pollId} has a tally but no row`);
      }
      const config = { ...live.config, poll: card };
      this.setMeta("config", JSON.stringify(config));
      live.config = config;
      return card;
    })().finally(() => {
      this.cardLoading = null;
    });
    return this.cardLoading;
  }

  private decide(live: Live, optionIds: string[], now: number): VoteRefusal | null {
    const { config } = live;
    if (live.status === "ditutup") {
      return "poll_closed";
    }
    if (now < Date.parse(config.startsAt)) {
      return "poll_not_started";
    }
    if (now >= Date.parse(config.endsAt)) {
      return "poll_ended";
    }
    const limit = config.multipleChoice ? config.maxChoices : 1;
    if (
      optionIds.length < 1 ||
      optionIds.length > limit ||
      new Set(optionIds).size !== optionIds.length ||
      optionIds.some((id) => !config.optionIds.includes(id))
    ) {
      return "invalid_choice";
    }
    return null;
  }

  /** One ballot (`voteMany` of one). */
  async vote(input: VoteInput): Promise<VoteResult> {
    const [result] = await this.voteMany([input]);
    if (!result) {
      throw new Error("voteMany answered nothing for one ballot");
    }
    return result;
  }

  /**
   * Decides and records ballots, in order, answering one result per ballot (the Worker sends the ballots
   * that arrived together, ADR 0005). Everything a decision reads is in memory (status, window,
   * options); the ballots, their eligibility checks and the counts are one synchronous transaction, so
   * no other request interleaves: none lost, none doubled, and a voter twice in one call is refused the
   * second time. Each accepted ballot's answer carries the counts as of that ballot. The answers leave
   * once the commit is durable.
   */
  async voteMany(inputs: VoteInput[]): Promise<VoteResult[]> {
    const found = this.state();
    if (!found) {
      return inputs.map(() => ({ ok: false, code: "not_found" }));
    }
    const poll = await this.card(found);
    // `card` may have awaited (a legacy object's first vote): read the state again.
    const live = this.state();
    if (!live) {
      return inputs.map(() => ({ ok: false, code: "not_found" }));
    }
    const castAt = new Date().toISOString();
    let results: VoteResult[];
    try {
      // Synchronous from here to the commit. The in-memory state moves with each ballot (the next one's
      // sequence number and counts); if the transaction fails it is dropped and loaded again from storage.
      results = this.ctx.storage.transactionSync(() =>
        inputs.map((input) => this.ballot(live, poll, input, castAt)),
      );
    } catch (error) {
      this.live = undefined;
      throw error;
    }
    if (results.some((r) => r.ok)) {
      // The ballots are durable once this object's storage commits them (the answers wait for that
      // through the output gate); the copy to the tenant database follows from the alarm.
      this.scheduleMirror();
    }
    return results;
  }

  /** One ballot inside `voteMany`'s transaction. */
  private ballot(live: Live, poll: PollCard, input: VoteInput, castAt: string): VoteResult {
    const refusal = this.decide(live, input.optionIds, input.now ?? Date.now());
    if (refusal) {
      return { ok: false, code: refusal };
    }
    let voterKey = input.voterKey;
    if (!voterKey) {
      if (poll.voterScope === "kk") {
        if (input.unitId === undefined) {
          return { ok: false, code: "needs_household" };
        }
        if (input.unitId === null) {
          return { ok: false, code: "no_household" };
        }
        voterKey = `unit:${input.unitId}`;
      } else {
        voterKey = `user:${input.userId}`;
      }
    }
    const seq = live.seq + 1;
    // The eligibility check rides in the INSERT; only a refused ballot asks which refusal it was.
    const inserted = this.sql
      .exec(
        `INSERT INTO ballots (voter_key, user_id, choices, cast_at, seq)
         SELECT ?, ?, ?, ?, ? WHERE EXISTS (SELECT 1 FROM eligible WHERE voter_key = ?)
         ON CONFLICT(voter_key) DO NOTHING RETURNING seq`,
        voterKey,
        input.userId,
        live.config.anonymous ? null : JSON.stringify(input.optionIds),
        castAt,
        seq,
        voterKey,
      )
      .toArray();
    if (!inserted.length) {
      const voted = this.sql.exec("SELECT 1 FROM ballots WHERE voter_key = ?", voterKey).toArray().length;
      return { ok: false, code: voted ? "already_voted" : "not_eligible" };
    }
    for (const id of input.optionIds) {
      this.sql.exec("UPDATE counts SET count = count + 1 WHERE option_id = ?", id);
    }
    live.seq = seq;
    for (const id of input.optionIds) {
      live.counts[id] = (live.counts[id] ?? 0) + 1;
    }
    return { ok: true, poll, castAt, ...this.snapshotOf(live) };
  }

  /** Closes the poll at once (the secretariat's close) and copies the closing before answering. */
  async close(): Promise<TallySnapshot> {
    const live = this.state();
    if (live && live.status !== "ditutup") {
      this.setMeta("status", "ditutup");
      live.status = "ditutup";
    }
    await this.mirrorSafely();
    return this.snapshotOf(this.state());
  }

  async snapshot(): Promise<TallySnapshot> {
    return this.snapshotOf(this.state());
  }

  async hasVoted(voterKey: string): Promise<boolean> {
    if (!this.state()) {
      return false;
    }
    return this.sql.exec("SELECT 1 FROM ballots WHERE voter_key = ?", voterKey).toArray().length > 0;
  }

  async ballotList(): Promise<BallotRow[]> {
    if (!this.state()) {
      return [];
    }
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
    const live = this.state();
    if (live && live.seq > 0) {
      return false;
    }
    await this.ctx.storage.deleteAlarm();
    await this.ctx.storage.deleteAll();
    this.live = null;
    return true;
  }

  /**
   * Closes the poll at `endsAt`, and copies the tally to the tenant database after votes. A failed
   * copy is retried from the alarm until it lands (the copy is absolute and idempotent); once the
   * database is up to date, the alarm goes back to `endsAt` while the poll is open.
   */
  override async alarm(): Promise<void> {
    const live = this.state();
    if (!live) {
      return;
    }
    if (live.status === "aktif" && Date.now() >= Date.parse(live.config.endsAt)) {
      this.setMeta("status", "ditutup");
      live.status = "ditutup";
    }
    // One copy per run (joining one in flight): ballots that arrive during it are copied by the next
    // run, at most one interval after this one started, so a burst costs one copy per interval.
    this.mirrorDue = true;
    await this.mirrorSafely(async () => {
      while (this.mirroring) {
        await this.mirroring;
      }
      if (!this.mirrored()) {
        await this.copy();
      }
    });
  }

  /**
   * Asks for a copy to the tenant database as soon as possible, without waiting for it. The alarm is
   * written with the ballot (same storage, same output gate), so a ballot never exists without its
   * pending copy, even if the object is evicted right after answering. Only the first ballot after a
   * copy sets it: the rest of a burst finds it due and writes nothing more.
   */
  private scheduleMirror(): void {
    if (this.mirrorDue) {
      return;
    }
    this.mirrorDue = true;
    void this.ctx.storage.setAlarm(this.nextCopyAt());
  }

  private nextCopyAt(): number {
    return Math.max(Date.now(), this.lastCopyAt + MIRROR_INTERVAL_MS);
  }

  /**
   * Copies (by default until the tenant database is up to date); on failure keeps the ballots (this
   * object is the authority) and retries from the alarm with a backoff.
   */
  private async mirrorSafely(copy: () => Promise<void> = () => this.mirror()): Promise<void> {
    try {
      await copy();
    } catch (error) {
      this.retries += 1;
      const delay = Math.min(MIRROR_RETRY_MS * 2 ** Math.min(this.retries - 1, 6), MIRROR_RETRY_MAX_MS);
      log("warn", "poll_mirror_failed", {
        poll: this.state()?.config.pollId,
        retryInMs: delay,
        error: String(error),
      });
      this.mirrorDue = true;
      await this.ctx.storage.setAlarm(Date.now() + delay);
      return;
    }
    this.retries = 0;
    if (!this.mirrored()) {
      // Votes came in during the copy: the next copy follows one interval after this one.
      this.mirrorDue = true;
      await this.ctx.storage.setAlarm(this.nextCopyAt());
      return;
    }
    // Synchronous from the `mirrored()` check: nothing is left to copy, so the alarm goes back to
    // closing the poll at endsAt (or away, once closed).
    this.mirrorDue = false;
    const live = this.state();
    if (live && live.status === "aktif") {
      await this.ctx.storage.setAlarm(Date.parse(live.config.endsAt));
    }
  }

  private mirrored(): boolean {
    const live = this.state();
    return !live || (live.mirroredSeq === live.seq && live.mirroredStatus === live.status);
  }

  /**
   * Waits until the tenant database reflects at least this moment's state (closing uses it). Concurrent
   * callers share one write in flight and at most one after it.
   */
  private async mirror(): Promise<void> {
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
    this.mirroring = this.mirrorOnce().finally(() => {
      this.mirroring = null;
    });
    await this.mirroring;
  }

  private async mirrorOnce(): Promise<void> {
    const live = this.state();
    if (!live) {
      return;
    }
    const { config } = live;
    const snap = this.snapshotOf(live);
    const voters = this.sql
      .exec<{ voter_key: string; user_id: string; cast_at: string }>(
        "SELECT voter_key, user_id, cast_at FROM ballots WHERE seq > ? AND seq <= ? ORDER BY seq",
        live.mirroredSeq,
        snap.seq,
      )
      .toArray();
    // The SQL is musyawarah's (drizzle, so a renamed column breaks the build, not the mirror). No flag
    // check: ballots accepted before musyawarah was switched off (or the tenant suspended) still land.
    const ctx = await objectTenantCtx(this.env, config.tenantSlug, "poll-mirror");
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
    live.mirroredSeq = snap.seq;
    live.mirroredStatus = snap.status;
  }
}
