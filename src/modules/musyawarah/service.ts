import { and, desc, eq, getTableColumns, inArray, lte, type SQL, sql } from "drizzle-orm";
import type { BatchItem } from "drizzle-orm/batch";
import { audit } from "../../core/audit";
import type { TenantCtx } from "../../core/context";
import { abortBatchUnless, isBatchAborted } from "../../core/db/errors";
import { afterCursor, keysetPage } from "../../core/db/paging";
import { rowById } from "../../core/db/rows";
import { Conflict, Invalid, NotFound } from "../../core/errors";
import { hasRole, ROLES, requireUser } from "../../core/http/access";
import { newId } from "../../core/ids";
import { type After, sharedCalls } from "../../core/sharedCalls";
import { nowIso } from "../../core/time";
import type {
  PollCard,
  TallyConfig,
  TallySnapshot,
  VoteInput as TallyVoteInput,
  VoteRefusal,
  VoteResult,
} from "../../durable/PollTally";
import { membershipIn, residentsOf, userNames } from "../identity/service";
import type { CreatePollInput, PollListQuery, UpdatePollInput, VoteInput } from "./schemas";
import { type PollOption, polls, pollVoters } from "./tables";

type PollRow = typeof polls.$inferSelect;
type Option = PollOption;
/** What `presentPoll` needs of a poll: a row of the tenant database, or the tally's card plus live counts. */
type PresentedRow = PollCard & Pick<PollRow, "status" | "results" | "ballots" | "closedAt">;

/**
 * Polls belong to the secretariat (sekretaris, admin), as the route table says: they alone see drafts,
 * see results before closing and see who voted. Residents vote. Any other member (the bendahara) reads
 * published polls as a resident does, but holds no ballot, so gets no `hasVoted`.
 */
const isOrganiser = (ctx: TenantCtx) => hasRole(ctx, ROLES.SECRETARIAT);
const isVoter = (ctx: TenantCtx) => hasRole(ctx, ROLES.RESIDENT);

function tally(ctx: TenantCtx, pollId: string) {
  const ns = ctx.env.POLL_TALLY;
  return ns.get(ns.idFromName(`${ctx.tenant.slug}:${pollId}`));
}

const pollAudit = (ctx: TenantCtx, action: string, pollId: string, detail?: Record<string, unknown>) =>
  audit(ctx, { action, targetType: "poll", targetId: pollId, detail });

function requiredBallots(row: PresentedRow, eligible: number): number | null {
  if (!row.quorumKind || row.quorumValue === null) {
    return null;
  }
  return row.quorumKind === "count" ? row.quorumValue : Math.ceil((eligible * row.quorumValue) / 100);
}

/** The poll as the caller may see it: results follow `resultsVisibility` for everyone but organisers. */
export function presentPoll(ctx: TenantCtx, row: PresentedRow, live?: TallySnapshot, hasVoted?: boolean) {
  const status = live?.status === "ditutup" ? "ditutup" : row.status;
  const counts = live?.counts ?? row.results;
  const ballots = live?.ballots ?? row.ballots;
  const visible = isOrganiser(ctx) || row.resultsVisibility === "always" || status === "ditutup";
  const required = row.eligibleVoters === null ? null : requiredBallots(row, row.eligibleVoters);
  return {
    id: row.id,
    title: row.title,
    description: row.description,
    options: row.options,
    startsAt: row.startsAt,
    endsAt: row.endsAt,
    status,
    quorum:
      row.quorumKind && row.quorumValue !== null ? { kind: row.quorumKind, value: row.quorumValue } : null,
    anonymous: row.anonymous,
    multipleChoice: row.multipleChoice,
    maxChoices: row.maxChoices,
    voterScope: row.voterScope,
    resultsVisibility: row.resultsVisibility,
    results: visible
      ? row.options.map((o) => ({ optionId: o.id, label: o.label, count: counts[o.id] ?? 0 }))
      : null,
    turnout: { ballots, eligibleVoters: row.eligibleVoters },
    quorumReached: required === null ? null : ballots >= required,
    ...(hasVoted === undefined ? {} : { hasVoted }),
    createdAt: row.createdAt,
    updatedAt: row.updatedAt,
    openedAt: row.openedAt,
    closedAt: row.closedAt,
  };
}

/** Fetch-or-404; a draft exists only for organisers. */
async function loadPoll(ctx: TenantCtx, id: string): Promise<PollRow> {
  const row = await rowById(ctx.db, polls, id);
  if (!row || (row.status === "draft" && !isOrganiser(ctx))) {
    throw new NotFound("Poll");
  }
  return row;
}

interface Definition {
  title: string;
  description: string | null;
  options: Option[];
  startsAt: string;
  endsAt: string;
  quorum: { kind: "percent" | "count"; value: number } | null;
  anonymous: boolean;
  multipleChoice: boolean;
  maxChoices: number;
  voterScope: "warga" | "kk";
  resultsVisibility: "always" | "after_close";
}

function checkDefinition(def: Definition): void {
  if (new Date(def.endsAt).getTime() <= new Date(def.startsAt).getTime()) {
    throw new Invalid("invalid_schedule", "endsAt must be after startsAt.", [
      { field: "endsAt", message: "before startsAt" },
    ]);
  }
  if (def.maxChoices > def.options.length) {
    throw new Invalid("invalid_max_choices", "maxChoices cannot exceed the number of options.", [
      { field: "maxChoices", message: `at most ${def.options.length}` },
    ]);
  }
}

function rowValues(def: Definition) {
  return {
    title: def.title,
    description: def.description,
    options: def.options,
    startsAt: new Date(def.startsAt).toISOString(),
    endsAt: new Date(def.endsAt).toISOString(),
    quorumKind: def.quorum?.kind ?? null,
    quorumValue: def.quorum?.value ?? null,
    anonymous: def.anonymous,
    multipleChoice: def.multipleChoice,
    maxChoices: def.maxChoices,
    voterScope: def.voterScope,
    resultsVisibility: def.resultsVisibility,
  };
}

function definitionOf(row: PollRow): Definition {
  return {
    title: row.title,
    description: row.description,
    options: row.options,
    startsAt: row.startsAt,
    endsAt: row.endsAt,
    quorum:
      row.quorumKind && row.quorumValue !== null ? { kind: row.quorumKind, value: row.quorumValue } : null,
    anonymous: row.anonymous,
    multipleChoice: row.multipleChoice,
    maxChoices: row.maxChoices,
    voterScope: row.voterScope,
    resultsVisibility: row.resultsVisibility,
  };
}

/** Applies the given fields over a base definition; new option labels get new ids. */
function merge(base: Definition, input: Partial<CreatePollInput>): Definition {
  const multipleChoice = input.multipleChoice ?? base.multipleChoice;
  const opts = input.options ? input.options.map((label) => ({ id: newId(), label })) : base.options;
  return {
    title: input.title ?? base.title,
    description: input.description === undefined ? base.description : input.description,
    options: opts,
    startsAt: input.startsAt ?? base.startsAt,
    endsAt: input.endsAt ?? base.endsAt,
    quorum: input.quorum === undefined ? base.quorum : input.quorum,
    anonymous: input.anonymous ?? base.anonymous,
    multipleChoice,
    maxChoices: multipleChoice ? (input.maxChoices ?? (input.options ? opts.length : base.maxChoices)) : 1,
    voterScope: input.voterScope ?? base.voterScope,
    resultsVisibility: input.resultsVisibility ?? base.resultsVisibility,
  };
}

const EMPTY: Definition = {
  title: "",
  description: null,
  options: [],
  startsAt: "",
  endsAt: "",
  quorum: null,
  anonymous: false,
  multipleChoice: false,
  maxChoices: 1,
  voterScope: "warga",
  resultsVisibility: "always",
};

async function eligibleVoters(ctx: TenantCtx, scope: "warga" | "kk"): Promise<string[]> {
  const residents = await residentsOf({ ctx });
  if (scope === "warga") {
    return residents.map((r) => `user:${r.userId}`);
  }
  return [...new Set(residents.flatMap((r) => (r.unitId ? [`unit:${r.unitId}`] : [])))];
}

function assertNotEnded(def: Definition): void {
  if (new Date(def.endsAt).getTime() <= Date.now()) {
    throw new Invalid("invalid_schedule", "A poll whose end is past cannot be published.", [
      { field: "endsAt", message: "in the past" },
    ]);
  }
}

/**
 * Opens the poll's tally with the voters eligible now, before the row says `aktif`: the tally is the
 * authority, and opening is idempotent (a retried publish keeps the first configuration). Returns the
 * number of eligible voters for the row.
 */
async function openTally(
  ctx: TenantCtx,
  pollId: string,
  def: Definition,
  times: { createdAt: string; openedAt: string },
): Promise<number> {
  assertNotEnded(def);
  const eligible = await eligibleVoters(ctx, def.voterScope);
  const config: TallyConfig = {
    tenantSlug: ctx.tenant.slug,
    pollId,
    optionIds: def.options.map((o) => o.id),
    multipleChoice: def.multipleChoice,
    maxChoices: def.maxChoices,
    anonymous: def.anonymous,
    startsAt: new Date(def.startsAt).toISOString(),
    endsAt: new Date(def.endsAt).toISOString(),
    eligible,
    // The row as this publication writes it: what a vote answers with, without reading the row.
    poll: {
      id: pollId,
      ...rowValues(def),
      eligibleVoters: eligible.length,
      createdAt: times.createdAt,
      updatedAt: times.openedAt,
      openedAt: times.openedAt,
    },
  };
  await tally(ctx, pollId).open(config);
  return eligible.length;
}

export async function createPoll({ ctx, input }: { ctx: TenantCtx; input: CreatePollInput }) {
  const def = merge(EMPTY, input);
  checkDefinition(def);
  const id = newId();
  const now = nowIso();
  const opening =
    input.status === "aktif"
      ? {
          status: "aktif" as const,
          eligibleVoters: await openTally(ctx, id, def, { createdAt: now, openedAt: now }),
          openedAt: now,
        }
      : { status: "draft" as const };
  const [[row]] = await ctx.db.batch([
    ctx.db
      .insert(polls)
      .values({
        id,
        ...rowValues(def),
        ...opening,
        createdBy: requireUser(ctx).userId,
        createdAt: now,
        updatedAt: now,
      })
      .returning(),
    pollAudit(ctx, "poll.create", id, { title: def.title, status: opening.status }),
  ]);
  if (!row) {
    throw new Error("insert returned no row");
  }
  return presentPoll(ctx, row);
}

/**
 * A draft's edit or publication: one conditional UPDATE (`status = 'draft'`), its audit record, and
 * between them a guard that aborts the batch when the UPDATE found no draft (a concurrent publish or
 * delete won), so no record is written for a change that did not happen.
 */
async function changeDraft(ctx: TenantCtx, id: string, input: UpdatePollInput, row: PollRow) {
  const { status, ...fields } = input;
  const editing = Object.values(fields).some((v) => v !== undefined);
  if (status === "ditutup") {
    throw new Conflict("invalid_transition", "A draft must be published before it can be closed.");
  }
  if (!editing && status !== "aktif") {
    return presentPoll(ctx, row);
  }
  const def = editing ? merge(definitionOf(row), fields as Partial<CreatePollInput>) : definitionOf(row);
  if (editing) {
    checkDefinition(def);
  }
  const now = nowIso();
  const change = {
    ...(editing ? rowValues(def) : {}),
    ...(status === "aktif"
      ? {
          status: "aktif" as const,
          eligibleVoters: await openTally(ctx, id, def, { createdAt: row.createdAt, openedAt: now }),
          openedAt: now,
        }
      : {}),
    updatedAt: now,
  };
  const landed = status === "aktif" ? eq(polls.openedAt, now) : eq(polls.status, "draft");
  try {
    const [[updated]] = await ctx.db.batch([
      ctx.db
        .update(polls)
        .set(change)
        .where(and(eq(polls.id, id), eq(polls.status, "draft")))
        .returning(),
      abortBatchUnless(ctx.db, polls, id, and(landed, eq(polls.updatedAt, now)) as SQL),
      pollAudit(ctx, status === "aktif" ? "poll.publish" : "poll.update", id),
    ]);
    if (!updated) {
      throw new NotFound("Poll");
    }
    return presentPoll(ctx, updated);
  } catch (error) {
    if (isBatchAborted(error)) {
      throw new Conflict("invalid_transition", "The poll is no longer a draft.");
    }
    throw error;
  }
}

export async function updatePoll({ ctx, id, input }: { ctx: TenantCtx; id: string; input: UpdatePollInput }) {
  const row = await loadPoll(ctx, id);
  const { status, ...fields } = input;
  const editing = Object.values(fields).some((v) => v !== undefined);
  if (row.status === "ditutup") {
    throw new Conflict("invalid_transition", "A closed poll is final.");
  }
  if (row.status === "draft") {
    return changeDraft(ctx, id, input, row);
  }
  if (editing || status === "draft") {
    throw new Conflict("invalid_transition", "A published poll can only be closed; its options are frozen.");
  }
  if (status === "ditutup") {
    await tally(ctx, id).close();
    const now = nowIso();
    // The tally's mirror normally did this already; repeating it is harmless and covers a failed mirror.
    await ctx.db.batch([
      ctx.db
        .update(polls)
        .set({ status: "ditutup", closedAt: row.closedAt ?? now, updatedAt: now })
        .where(eq(polls.id, id)),
      pollAudit(ctx, "poll.close", id),
    ]);
  }
  return getPoll({ ctx, id });
}

export async function deletePoll({ ctx, id }: { ctx: TenantCtx; id: string }) {
  const row = await loadPoll(ctx, id);
  // Drafts too: a publication that opened the tally but failed to write its row leaves an open tally
  // behind a draft, and votes go to the tally alone (ADR 0005).
  const forgotten = await tally(ctx, id).destroy();
  if (!forgotten) {
    throw new Conflict("poll_has_ballots", "A poll that has ballots cannot be deleted; close it instead.");
  }
  await ctx.db.batch([
    ctx.db.delete(pollVoters).where(eq(pollVoters.pollId, id)),
    ctx.db.delete(polls).where(eq(polls.id, id)),
    pollAudit(ctx, "poll.delete", id, { title: row.title }),
  ]);
}

/** The ballot keys a resident holds: their own, and their household's for `kk` polls. */
async function voterKeys(ctx: TenantCtx): Promise<{ user: string; unit: string | null }> {
  const { userId } = requireUser(ctx);
  const membership = await membershipIn({ ctx });
  return { user: `user:${userId}`, unit: membership?.unitId ? `unit:${membership.unitId}` : null };
}

/** The key of the ballot a poll gives this resident; only household polls need the membership read. */
async function voterKeyFor(ctx: TenantCtx, row: PollRow): Promise<string | null> {
  return row.voterScope === "kk" ? (await voterKeys(ctx)).unit : `user:${requireUser(ctx).userId}`;
}

/**
 * Whether the resident's own ballot key is among a poll's voters: a correlated lookup on the
 * `poll_voters` primary key, evaluated inside the page query, so a resident's list page is one round trip.
 */
const votedAs = (key: string) =>
  sql<number>`EXISTS (SELECT 1 FROM ${pollVoters} WHERE ${pollVoters.pollId} = ${polls.id} AND ${pollVoters.voterKey} = ${key})`;

/**
 * Household (`kk`) polls of the page whose ballot the resident's household has used. Only pages that hold
 * such polls pay for it: the member's unit is in the platform database, so it cannot join the page query.
 */
async function householdVotedIn(ctx: TenantCtx, pollIds: string[]): Promise<Set<string>> {
  if (!pollIds.length) {
    return new Set();
  }
  const { unit } = await voterKeys(ctx);
  if (!unit) {
    return new Set();
  }
  const rows = await ctx.db
    .select({ pollId: pollVoters.pollId })
    .from(pollVoters)
    .where(and(inArray(pollVoters.pollId, pollIds), eq(pollVoters.voterKey, unit)));
  return new Set(rows.map((r) => r.pollId));
}

/**
 * One page of polls. For residents `hasVoted` comes from the mirror of who voted (ADR 0005), in the
 * page query itself for personal polls; household polls on the page add the member's unit read.
 */
export async function listPolls({ ctx, input }: { ctx: TenantCtx; input: PollListQuery }) {
  const filters: SQL[] = [
    ...afterCursor(polls.id, input.cursor, "desc"),
    ...(input.status ? [eq(polls.status, input.status)] : []),
    ...(isOrganiser(ctx) ? [] : [inArray(polls.status, ["aktif", "ditutup"])]),
  ];
  const voter = isVoter(ctx);
  const rows = await ctx.db
    .select({
      ...getTableColumns(polls),
      votedAsUser: voter ? votedAs(`user:${requireUser(ctx).userId}`) : sql<number>`0`,
    })
    .from(polls)
    .where(and(...filters))
    .orderBy(desc(polls.id))
    .limit(input.limit + 1);
  const page = keysetPage(rows, input.limit);
  const household = voter
    ? await householdVotedIn(
        ctx,
        page.items.filter((p) => p.voterScope === "kk").map((p) => p.id),
      )
    : null;
  return {
    items: page.items.map(({ votedAsUser, ...row }) =>
      presentPoll(
        ctx,
        row,
        undefined,
        household ? (row.voterScope === "kk" ? household.has(row.id) : Boolean(votedAsUser)) : undefined,
      ),
    ),
    nextCursor: page.nextCursor,
  };
}

export async function getPoll({ ctx, id }: { ctx: TenantCtx; id: string }) {
  const row = await loadPoll(ctx, id);
  if (row.status === "draft") {
    return presentPoll(ctx, row);
  }
  const stub = tally(ctx, id);
  const live = await stub.snapshot();
  if (!isVoter(ctx)) {
    return presentPoll(ctx, row, live);
  }
  const key = await voterKeyFor(ctx, row);
  return presentPoll(ctx, row, live, key ? await stub.hasVoted(key) : false);
}

type Refusal = Exclude<VoteRefusal, "needs_household">;
const REFUSALS: Record<Refusal, () => Error> = {
  not_found: () => new NotFound("Poll"),
  already_voted: () => new Conflict("already_voted", "This ballot has already been cast."),
  poll_not_open: () => new Conflict("poll_not_open", "Voting is not open for this poll."),
  poll_not_started: () => new Conflict("poll_not_started", "Voting has not started yet."),
  poll_ended: () => new Conflict("poll_ended", "Voting has ended."),
  poll_closed: () => new Conflict("poll_closed", "The poll is closed."),
  not_eligible: () => new Conflict("not_eligible", "You were not an eligible voter when this poll opened."),
  no_household: () =>
    new Conflict("profile_incomplete", "Set your housing unit in your profile to vote for your household."),
  invalid_choice: () =>
    new Invalid("invalid_choice", "Choose one option, or up to maxChoices distinct options of this poll.", [
      { field: "optionIds", message: "not a valid choice for this poll" },
    ]),
};

/**
 * Household polls this isolate has met (`<tenant>:<poll>`), so their votes read the member's unit
 * before asking the tally instead of after its `needs_household`. A poll's scope is frozen once it is
 * published; a forgotten entry costs one more call to the object, never a wrong answer. Bounded.
 */
const householdPolls = new Set<string>();
const HOUSEHOLD_POLLS_MAX = 1_000;

function rememberHouseholdPoll(key: string): void {
  if (householdPolls.size >= HOUSEHOLD_POLLS_MAX) {
    householdPolls.clear();
  }
  householdPolls.add(key);
}

async function unitOf(ctx: TenantCtx): Promise<string | null> {
  return (await membershipIn({ ctx }))?.unitId ?? null;
}

/**
 * Ballots on their way to a poll's tally from this isolate: those cast while a call to the same tally is
 * in flight go together in its next call (`voteMany`), so a burst of voters makes one call per round
 * trip instead of queueing one call each at the object (ADR 0005). Keyed by tenant and poll.
 */
const ballotBox = sharedCalls<TallyVoteInput, VoteResult>(500);

/**
 * One ballot, decided by the poll's tally alone (ADR 0005): the object holds the published poll, its
 * window, status and eligible voters, so the vote reads nothing from the tenant database and answers
 * 404 (no published poll), 409 (closed, not yet open, ended, not eligible, already voted) and 400
 * itself. Household polls add the member's unit read (platform database). `keep` is the request's
 * `waitUntil`, so a call carrying other voters' ballots finishes even if this caller goes away.
 */
export async function castVote({
  ctx,
  id,
  input,
  keep,
}: {
  ctx: TenantCtx;
  id: string;
  input: VoteInput;
  keep?: After;
}) {
  const { userId } = requireUser(ctx);
  const key = `${ctx.tenant.slug}:${id}`;
  const cast = (ballot: TallyVoteInput) =>
    ballotBox(key, ballot, (ballots) => tally(ctx, id).voteMany(ballots), keep);
  let result = await cast({
    userId,
    optionIds: input.optionIds,
    ...(householdPolls.has(key) ? { unitId: await unitOf(ctx) } : {}),
  });
  if (!result.ok && result.code === "needs_household") {
    rememberHouseholdPoll(key);
    result = await cast({ userId, optionIds: input.optionIds, unitId: await unitOf(ctx) });
  }
  if (!result.ok) {
    if (result.code === "needs_household") {
      throw new Error("the tally asked twice for the household");
    }
    throw REFUSALS[result.code]();
  }
  const { poll, castAt, ...live } = result;
  const row = {
    ...poll,
    status: "aktif" as const,
    results: live.counts,
    ballots: live.ballots,
    closedAt: null,
  };
  return presentPoll(ctx, { ...row, updatedAt: castAt }, live, true);
}

/** A published poll's card, for a tally opened before it kept one (PollTally `card`). */
export async function publishedPoll({ ctx, id }: { ctx: TenantCtx; id: string }): Promise<PollCard | null> {
  const row = await rowById(ctx.db, polls, id);
  if (!row || row.status === "draft") {
    return null;
  }
  return {
    id: row.id,
    title: row.title,
    description: row.description,
    options: row.options,
    startsAt: row.startsAt,
    endsAt: row.endsAt,
    quorumKind: row.quorumKind,
    quorumValue: row.quorumValue,
    anonymous: row.anonymous,
    multipleChoice: row.multipleChoice,
    maxChoices: row.maxChoices,
    voterScope: row.voterScope,
    resultsVisibility: row.resultsVisibility,
    eligibleVoters: row.eligibleVoters,
    createdAt: row.createdAt,
    updatedAt: row.openedAt ?? row.updatedAt,
    openedAt: row.openedAt,
  };
}

export async function listVotes({ ctx, id }: { ctx: TenantCtx; id: string }) {
  const row = await loadPoll(ctx, id);
  if (row.status === "draft") {
    return { items: [], anonymous: row.anonymous };
  }
  const ballots = await tally(ctx, id).ballotList();
  const names = await userNames({ ctx, ids: ballots.map((b) => b.userId) });
  return {
    anonymous: row.anonymous,
    items: ballots.map((b) => ({
      userId: b.userId,
      name: names.get(b.userId) ?? null,
      castAt: b.castAt,
      ...(row.anonymous || !b.optionIds ? {} : { optionIds: b.optionIds }),
    })),
  };
}

/** What a poll's tally hands the tenant database: absolute counts at `seq`, and the voters after the last mirror. */
export interface TallyMirror {
  pollId: string;
  counts: Record<string, number>;
  ballots: number;
  seq: number;
  status: TallySnapshot["status"];
  voters: { voterKey: string; userId: string; votedAt: string }[];
}

/** Four parameters a voter row: D1 binds at most 100 per statement. */
const VOTER_ROWS_PER_STATEMENT = 25;

/**
 * Mirrors a tally into the poll's row and `poll_voters`, for lists and the dashboard. The counts are
 * absolute and the row takes them only when its `results_seq` is not ahead (`results_seq <= seq`), and
 * voters are inserted or ignored, so a repeated or reordered mirror never doubles or rolls back
 * anything. Called by the PollTally Durable Object (a system context), never by a route.
 */
export async function mirrorTally({ ctx, input }: { ctx: TenantCtx; input: TallyMirror }) {
  const now = nowIso();
  const closing =
    input.status === "ditutup"
      ? { status: "ditutup" as const, closedAt: sql`COALESCE(${polls.closedAt}, ${now})` }
      : {};
  const statements: [BatchItem<"sqlite">, ...BatchItem<"sqlite">[]] = [
    ctx.db
      .update(polls)
      .set({
        results: input.counts,
        ballots: input.ballots,
        resultsSeq: input.seq,
        ...closing,
        updatedAt: now,
      })
      .where(and(eq(polls.id, input.pollId), lte(polls.resultsSeq, input.seq))),
  ];
  for (let i = 0; i < input.voters.length; i += VOTER_ROWS_PER_STATEMENT) {
    const chunk = input.voters.slice(i, i + VOTER_ROWS_PER_STATEMENT);
    statements.push(
      ctx.db
        .insert(pollVoters)
        .values(chunk.map((v) => ({ pollId: input.pollId, ...v })))
        .onConflictDoNothing(),
    );
  }
  await ctx.db.batch(statements);
}

/** Dashboard indicator: polls open for voting. */
export async function countActivePolls(ctx: TenantCtx): Promise<number> {
  return ctx.db.$count(polls, eq(polls.status, "aktif"));
}
