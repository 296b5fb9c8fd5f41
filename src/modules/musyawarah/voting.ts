import type { TenantCtx } from "../../core/context";
import { Conflict, Invalid, NotFound } from "../../core/errors";
import { requireUser } from "../../core/http/access";
import { type After, sharedCalls } from "../../core/sharedCalls";
import type { VoteInput as TallyVoteInput, VoteRefusal, VoteResult } from "../../durable/pollTallyTypes";
import { callerUnitId } from "../identity/service";
import { presentPoll, tally } from "./polls";
import type { VoteInput } from "./schemas";

/** Casting a vote: through the poll's tally, one ballot per voter (or per household). */

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
    ...(householdPolls.has(key) ? { unitId: await callerUnitId({ ctx }) } : {}),
  });
  if (!result.ok && result.code === "needs_household") {
    rememberHouseholdPoll(key);
    result = await cast({ userId, optionIds: input.optionIds, unitId: await callerUnitId({ ctx }) });
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
