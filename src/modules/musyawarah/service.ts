import { and, desc, eq, inArray, lt, type SQL } from "drizzle-orm";
import { auditInsert } from "../../core/audit";
import { STAFF_ROLES, type TenantCtx } from "../../core/context";
import { platformDb } from "../../core/db/platform";
import { Conflict, Invalid, NotFound } from "../../core/errors";
import { newId } from "../../core/ids";
import type { TallyConfig, TallySnapshot, VoteRefusal } from "../../durable/PollTally";
import { membershipIn, residentsOf, userNames } from "../identity/service";
import type { CreatePollInput, PollListQuery, UpdatePollInput, VoteInput } from "./schemas";
import { polls, pollVoters } from "./tables";

type PollRow = typeof polls.$inferSelect;
type Option = { id: string; label: string };

function isStaff(ctx: TenantCtx): boolean {
  return ctx.actor.kind === "user" && (STAFF_ROLES as readonly string[]).includes(ctx.actor.role);
}

function userId(ctx: TenantCtx): string {
  if (ctx.actor.kind !== "user") {
    throw new Error("poll verbs need a signed-in user");
  }
  return ctx.actor.userId;
}

function tally(ctx: TenantCtx, pollId: string) {
  const ns = ctx.env.POLL_TALLY;
  return ns.get(ns.idFromName(`${ctx.tenant.slug}:${pollId}`));
}

function audit(ctx: TenantCtx, action: string, pollId: string, detail?: Record<string, unknown>) {
  return auditInsert(platformDb(ctx.env), ctx, {
    tenantId: ctx.tenant.id,
    action,
    targetType: "poll",
    targetId: pollId,
    detail,
  });
}

const options = (row: PollRow): Option[] => JSON.parse(row.options) as Option[];

function requiredBallots(row: PollRow, eligible: number): number | null {
  if (!row.quorumKind || row.quorumValue === null) {
    return null;
  }
  return row.quorumKind === "count" ? row.quorumValue : Math.ceil((eligible * row.quorumValue) / 100);
}

/** The poll as the caller may see it: results follow `resultsVisibility` for residents. */
export function presentPoll(ctx: TenantCtx, row: PollRow, live?: TallySnapshot, hasVoted?: boolean) {
  const status = live?.status === "ditutup" ? "ditutup" : row.status;
  const counts = live?.counts ?? (JSON.parse(row.results) as Record<string, number>);
  const ballots = live?.ballots ?? row.ballots;
  const visible = isStaff(ctx) || row.resultsVisibility === "always" || status === "ditutup";
  const required = row.eligibleVoters === null ? null : requiredBallots(row, row.eligibleVoters);
  return {
    id: row.id,
    title: row.title,
    description: row.description,
    options: options(row),
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
      ? options(row).map((o) => ({ optionId: o.id, label: o.label, count: counts[o.id] ?? 0 }))
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

/** Fetch-or-404; a draft is invisible to residents. */
async function loadPoll(ctx: TenantCtx, id: string): Promise<PollRow> {
  const row = await ctx.db.select().from(polls).where(eq(polls.id, id)).get();
  if (!row || (row.status === "draft" && !isStaff(ctx))) {
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
    options: JSON.stringify(def.options),
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
    options: options(row),
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
  const residents = await residentsOf(ctx.env, ctx.tenant.id);
  if (scope === "warga") {
    return residents.map((r) => `user:${r.userId}`);
  }
  return [...new Set(residents.flatMap((r) => (r.unitId ? [`unit:${r.unitId}`] : [])))];
}

/** draft → aktif: takes the eligible voters, opens the tally (idempotent), then marks the row. */
async function publish(ctx: TenantCtx, row: PollRow): Promise<PollRow> {
  if (new Date(row.endsAt).getTime() <= Date.now()) {
    throw new Invalid("invalid_schedule", "A poll whose end is past cannot be published.", [
      { field: "endsAt", message: "in the past" },
    ]);
  }
  const eligible = await eligibleVoters(ctx, row.voterScope);
  const config: TallyConfig = {
    tenantSlug: ctx.tenant.slug,
    slot: ctx.tenant.slot,
    pollId: row.id,
    optionIds: options(row).map((o) => o.id),
    multipleChoice: row.multipleChoice,
    maxChoices: row.maxChoices,
    anonymous: row.anonymous,
    startsAt: row.startsAt,
    endsAt: row.endsAt,
    eligible,
  };
  await tally(ctx, row.id).open(config);
  const now = new Date().toISOString();
  const [updated] = await ctx.db
    .update(polls)
    .set({ status: "aktif", eligibleVoters: eligible.length, openedAt: now, updatedAt: now })
    .where(and(eq(polls.id, row.id), eq(polls.status, "draft")))
    .returning();
  if (!updated) {
    throw new Conflict("invalid_transition", "The poll is no longer a draft.");
  }
  return updated;
}

export async function createPoll({ ctx, input }: { ctx: TenantCtx; input: CreatePollInput }) {
  const def = merge(EMPTY, input);
  checkDefinition(def);
  const id = newId();
  const [row] = await ctx.db
    .insert(polls)
    .values({
      id,
      ...rowValues(def),
      status: "draft",
      createdBy: userId(ctx),
      updatedAt: new Date().toISOString(),
    })
    .returning();
  if (!row) {
    throw new Error("insert returned no row");
  }
  const result = input.status === "aktif" ? await publish(ctx, row) : row;
  await audit(ctx, "poll.create", id, { title: def.title, status: result.status });
  return presentPoll(ctx, result);
}

export async function updatePoll({ ctx, id, input }: { ctx: TenantCtx; id: string; input: UpdatePollInput }) {
  const row = await loadPoll(ctx, id);
  const { status, ...fields } = input;
  const editing = Object.values(fields).some((v) => v !== undefined);
  if (row.status === "ditutup") {
    throw new Conflict("invalid_transition", "A closed poll is final.");
  }
  if (row.status === "aktif") {
    if (editing || status === "draft") {
      throw new Conflict(
        "invalid_transition",
        "A published poll can only be closed; its options are frozen.",
      );
    }
    if (status === "ditutup") {
      await tally(ctx, id).close();
      const now = new Date().toISOString();
      // The tally's mirror normally did this already; repeating it is harmless and covers a failed mirror.
      await ctx.db
        .update(polls)
        .set({ status: "ditutup", closedAt: row.closedAt ?? now, updatedAt: now })
        .where(eq(polls.id, id));
      await audit(ctx, "poll.close", id);
    }
    return getPoll({ ctx, id });
  }
  if (status === "ditutup") {
    throw new Conflict("invalid_transition", "A draft must be published before it can be closed.");
  }
  let current = row;
  if (editing) {
    const def = merge(definitionOf(row), fields as Partial<CreatePollInput>);
    checkDefinition(def);
    const [updated] = await ctx.db
      .update(polls)
      .set({ ...rowValues(def), updatedAt: new Date().toISOString() })
      .where(and(eq(polls.id, id), eq(polls.status, "draft")))
      .returning();
    if (!updated) {
      throw new Conflict("invalid_transition", "The poll is no longer a draft.");
    }
    current = updated;
  }
  if (status === "aktif") {
    current = await publish(ctx, current);
  }
  await audit(ctx, status === "aktif" ? "poll.publish" : "poll.update", id);
  return presentPoll(ctx, current);
}

export async function deletePoll({ ctx, id }: { ctx: TenantCtx; id: string }) {
  const row = await loadPoll(ctx, id);
  if (row.status !== "draft") {
    const forgotten = await tally(ctx, id).destroy();
    if (!forgotten) {
      throw new Conflict("poll_has_ballots", "A poll that has ballots cannot be deleted; close it instead.");
    }
  }
  await ctx.db.batch([
    ctx.db.delete(pollVoters).where(eq(pollVoters.pollId, id)),
    ctx.db.delete(polls).where(eq(polls.id, id)),
  ]);
  await audit(ctx, "poll.delete", id, { title: row.title });
}

/** The ballot keys a resident holds: their own, and their household's for `kk` polls. */
async function voterKeys(ctx: TenantCtx): Promise<{ user: string; unit: string | null }> {
  const id = userId(ctx);
  const membership = await membershipIn(ctx.env, id, ctx.tenant.id);
  return { user: `user:${id}`, unit: membership?.unitId ? `unit:${membership.unitId}` : null };
}

/** The key of the ballot a poll gives this resident; only household polls need the membership read. */
async function voterKeyFor(ctx: TenantCtx, row: PollRow): Promise<string | null> {
  return row.voterScope === "kk" ? (await voterKeys(ctx)).unit : `user:${userId(ctx)}`;
}

export async function listPolls({ ctx, input }: { ctx: TenantCtx; input: PollListQuery }) {
  const staff = isStaff(ctx);
  const filters: SQL[] = [];
  if (input.cursor) {
    filters.push(lt(polls.id, input.cursor));
  }
  if (input.status) {
    filters.push(eq(polls.status, input.status));
  }
  if (!staff) {
    filters.push(inArray(polls.status, ["aktif", "ditutup"]));
  }
  const rows = await ctx.db
    .select()
    .from(polls)
    .where(and(...filters))
    .orderBy(desc(polls.id))
    .limit(input.limit + 1);
  const page = rows.slice(0, input.limit);
  let voted = new Set<string>();
  if (!staff && page.length) {
    const keys = await voterKeys(ctx);
    const held = [keys.user, ...(keys.unit ? [keys.unit] : [])];
    const rowsVoted = await ctx.db
      .select({ pollId: pollVoters.pollId, voterKey: pollVoters.voterKey })
      .from(pollVoters)
      .where(
        and(
          inArray(
            pollVoters.pollId,
            page.map((p) => p.id),
          ),
          inArray(pollVoters.voterKey, held),
        ),
      );
    const byPoll = new Map(page.map((p) => [p.id, p.voterScope === "kk" ? keys.unit : keys.user]));
    voted = new Set(rowsVoted.filter((r) => byPoll.get(r.pollId) === r.voterKey).map((r) => r.pollId));
  }
  return {
    items: page.map((row) => presentPoll(ctx, row, undefined, staff ? undefined : voted.has(row.id))),
    nextCursor: rows.length > input.limit ? (page.at(-1)?.id ?? null) : null,
  };
}

export async function getPoll({ ctx, id }: { ctx: TenantCtx; id: string }) {
  const row = await loadPoll(ctx, id);
  if (row.status === "draft") {
    return presentPoll(ctx, row);
  }
  const stub = tally(ctx, id);
  const live = await stub.snapshot();
  if (isStaff(ctx)) {
    return presentPoll(ctx, row, live);
  }
  const key = await voterKeyFor(ctx, row);
  return presentPoll(ctx, row, live, key ? await stub.hasVoted(key) : false);
}

const REFUSALS: Record<VoteRefusal, () => Error> = {
  already_voted: () => new Conflict("already_voted", "This ballot has already been cast."),
  poll_not_open: () => new Conflict("poll_not_open", "Voting is not open for this poll."),
  poll_not_started: () => new Conflict("poll_not_started", "Voting has not started yet."),
  poll_ended: () => new Conflict("poll_ended", "Voting has ended."),
  poll_closed: () => new Conflict("poll_closed", "The poll is closed."),
  not_eligible: () => new Conflict("not_eligible", "You were not an eligible voter when this poll opened."),
  invalid_choice: () =>
    new Invalid("invalid_choice", "Choose one option, or up to maxChoices distinct options of this poll.", [
      { field: "optionIds", message: "not a valid choice for this poll" },
    ]),
};

export async function castVote({ ctx, id, input }: { ctx: TenantCtx; id: string; input: VoteInput }) {
  const row = await loadPoll(ctx, id);
  if (row.status === "ditutup") {
    throw REFUSALS.poll_closed();
  }
  const voterKey = await voterKeyFor(ctx, row);
  if (!voterKey) {
    throw new Conflict(
      "profile_incomplete",
      "Set your housing unit in your profile to vote for your household.",
    );
  }
  const result = await tally(ctx, id).vote({ voterKey, userId: userId(ctx), optionIds: input.optionIds });
  if (!result.ok) {
    throw REFUSALS[result.code]();
  }
  return presentPoll(ctx, row, result, true);
}

export async function listVotes({ ctx, id }: { ctx: TenantCtx; id: string }) {
  const row = await loadPoll(ctx, id);
  if (row.status === "draft") {
    return { items: [], anonymous: row.anonymous };
  }
  const ballots = await tally(ctx, id).ballotList();
  const names = await userNames(
    ctx.env,
    ballots.map((b) => b.userId),
  );
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

/** Dashboard indicator: polls open for voting. */
export async function countActivePolls(ctx: TenantCtx): Promise<number> {
  return ctx.db.$count(polls, eq(polls.status, "aktif"));
}
