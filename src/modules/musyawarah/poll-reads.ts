import { and, desc, eq, getTableColumns, type SQL, sql } from "drizzle-orm";
import type { TenantCtx } from "../../core/context";
import { afterCursor, keysetPage } from "../../core/db/paging";
import { rowById } from "../../core/db/rows";
import { requireUser } from "../../core/http/access";
import type { PollCard } from "../../durable/pollTallyTypes";
import { userNames } from "../identity/service";
import {
  householdVotedIn,
  isOrganiser,
  isVoter,
  loadPoll,
  presentPoll,
  tally,
  votedAs,
  voterKeyFor,
} from "./polls";
import type { PollListQuery } from "./schemas";
import { polls } from "./tables";

/** Polls read: the list, one poll with its live count, its ballots, and the tally's card. */

/**
 * One page of polls. Staff see every poll; anyone else sees the ones open for voting (`aktif`) only (spec:
 * "residents see active ones"): a closed poll stays readable by its id, its results shown as its
 * `resultsVisibility` allows. For residents `hasVoted` comes from the mirror of who voted (ADR 0005), in the
 * page query itself for personal polls; household polls on the page add the member's unit read.
 */
export async function listPolls({ ctx, input }: { ctx: TenantCtx; input: PollListQuery }) {
  const filters: SQL[] = [
    ...afterCursor(polls.id, input.cursor, "desc"),
    ...(input.status ? [eq(polls.status, input.status)] : []),
    ...(isOrganiser(ctx) ? [] : [eq(polls.status, "aktif")]),
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

/** Dashboard indicator: polls open for voting. */
export async function countActivePolls(ctx: TenantCtx): Promise<number> {
  return ctx.db.$count(polls, eq(polls.status, "aktif"));
}
