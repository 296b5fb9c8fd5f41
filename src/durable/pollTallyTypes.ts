/**
 * The shapes a poll's tally object speaks in (ADR 0005): its configuration, a vote and its answer, the
 * snapshot of counts, and the state it keeps in memory. musyawarah imports these types; only
 * `PollTally.ts` holds the object itself.
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
export interface Live {
  config: TallyConfig;
  status: "aktif" | "ditutup";
  counts: Record<string, number>;
  seq: number;
  eligible: number;
  mirroredSeq: number;
  mirroredStatus: string | null;
}

/** The answer's view of a tally: the counts and ballots as of now (or nothing, for an unopened poll). */
export function snapshotOf(live: Live | null): TallySnapshot {
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

/** Why a ballot of these options cannot count at `now` (status, window, choices), or `null` when it can. */
export function refusalOf(live: Live, optionIds: string[], now: number): VoteRefusal | null {
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
