import { DurableObject } from "cloudflare:workers";
import type { Bindings } from "../core/env";
import { objectTenantCtx } from "../core/jobs";
import { systemNow } from "../core/time";
import { publishedPoll } from "../modules/musyawarah/service";
import { TallyMirror } from "./pollTallyMirror";
import {
  type BallotRow,
  type Live,
  type PollCard,
  refusalOf,
  snapshotOf,
  type TallyConfig,
  type TallySnapshot,
  type VoteInput,
  type VoteResult,
} from "./pollTallyTypes";

const SCHEMA = `
  CREATE TABLE IF NOT EXISTS meta (key TEXT PRIMARY KEY, value TEXT NOT NULL);
  CREATE TABLE IF NOT EXISTS eligible (voter_key TEXT PRIMARY KEY);
  CREATE TABLE IF NOT EXISTS ballots (
    voter_key TEXT PRIMARY KEY, user_id TEXT NOT NULL, choices TEXT, cast_at TEXT NOT NULL,
    seq INTEGER NOT NULL UNIQUE);
  CREATE TABLE IF NOT EXISTS counts (option_id TEXT PRIMARY KEY, count INTEGER NOT NULL);
`;

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
export class PollTally extends DurableObject<Bindings> {
  private readonly sql: SqlStorage;
  private readonly mirror: TallyMirror;
  /** `undefined` until loaded; `null` while no poll is open here (unknown id, draft, deleted). */
  private live: Live | null | undefined;
  /** A legacy configuration's poll card being read from the tenant database (shared by concurrent votes). */
  private cardLoading: Promise<PollCard> | null = null;

  constructor(ctx: DurableObjectState, env: Bindings) {
    super(ctx, env);
    // No schema here: an object nobody opened (a vote on an unknown id) must not write anything.
    this.sql = ctx.storage.sql;
    this.mirror = new TallyMirror({
      sql: this.sql,
      storage: ctx.storage,
      env,
      state: () => this.state(),
      setMeta: (key, value) => this.setMeta(key, value),
    });
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
    return snapshotOf(this.state());
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
    const castAt = systemNow().toISOString();
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
      this.mirror.schedule();
    }
    return results;
  }

  /** One ballot inside `voteMany`'s transaction. */
  private ballot(live: Live, poll: PollCard, input: VoteInput, castAt: string): VoteResult {
    const refusal = refusalOf(live, input.optionIds, input.now ?? systemNow().getTime());
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
    return { ok: true, poll, castAt, ...snapshotOf(live) };
  }

  /** Closes the poll at once (the secretariat's close) and copies the closing before answering. */
  async close(): Promise<TallySnapshot> {
    const live = this.state();
    if (live && live.status !== "ditutup") {
      this.setMeta("status", "ditutup");
      live.status = "ditutup";
    }
    await this.mirror.untilCopied();
    return snapshotOf(this.state());
  }

  async snapshot(): Promise<TallySnapshot> {
    return snapshotOf(this.state());
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
    if (live.status === "aktif" && systemNow().getTime() >= Date.parse(live.config.endsAt)) {
      this.setMeta("status", "ditutup");
      live.status = "ditutup";
    }
    await this.mirror.onAlarm();
  }
}
