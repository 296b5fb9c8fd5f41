import { and, eq, type SQL } from "drizzle-orm";
import type { TenantCtx } from "../../core/context";
import { abortBatchUnless, isBatchAborted } from "../../core/db/errors";
import { rowById } from "../../core/db/rows";
import { Conflict, Invalid, InvalidTransition, NotFound } from "../../core/errors";
import { requireUser } from "../../core/http/access";
import { newId } from "../../core/ids";
import { nowIso } from "../../core/time";
import type { TallyConfig } from "../../durable/pollTallyTypes";
import { getPoll } from "./poll-reads";
import { eligibleVoters, loadPoll, type Option, type PollRow, pollAudit, presentPoll, tally } from "./polls";
import type { CreatePollInput, UpdatePollInput } from "./schemas";
import { polls, pollVoters } from "./tables";

/** Polls written by the secretariat: a draft defined, published (its tally opened), changed, deleted. */

/** A poll's life: a draft (edited freely) is published, a published poll is closed, a closed one is final. */
const POLL_NEXT: Record<PollRow["status"], PollRow["status"][]> = {
  draft: ["aktif"],
  aktif: ["ditutup"],
  ditutup: [],
};

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

function assertNotEnded(def: Definition, now: Date): void {
  if (new Date(def.endsAt).getTime() <= now.getTime()) {
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
  assertNotEnded(def, ctx.now());
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
  const now = nowIso(ctx);
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
    throw new InvalidTransition("A draft must be published before it can be closed.", POLL_NEXT.draft);
  }
  if (!editing && status !== "aktif") {
    return presentPoll(ctx, row);
  }
  const def = editing ? merge(definitionOf(row), fields as Partial<CreatePollInput>) : definitionOf(row);
  if (editing) {
    checkDefinition(def);
  }
  const now = nowIso(ctx);
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
      const fresh = await rowById(ctx.db, polls, id);
      throw new InvalidTransition("The poll is no longer a draft.", POLL_NEXT[fresh?.status ?? "ditutup"]);
    }
    throw error;
  }
}

export async function updatePoll({ ctx, id, input }: { ctx: TenantCtx; id: string; input: UpdatePollInput }) {
  const row = await loadPoll(ctx, id);
  const { status, ...fields } = input;
  const editing = Object.values(fields).some((v) => v !== undefined);
  if (row.status === "ditutup") {
    throw new InvalidTransition("A closed poll is final.", POLL_NEXT.ditutup);
  }
  if (row.status === "draft") {
    return changeDraft(ctx, id, input, row);
  }
  if (editing || status === "draft") {
    throw new InvalidTransition(
      "A published poll can only be closed; its options are frozen.",
      POLL_NEXT.aktif,
    );
  }
  if (status === "ditutup") {
    // The row is touched first, in a batch of its own: a close sent with If-Match is checked against
    // the version the officer read here, before the tally closes (closing cannot be undone), and not
    // after the tally's mirror has moved the row's version on (which answered 412 to a current tag).
    await ctx.db.batch([
      ctx.db
        .update(polls)
        .set({ updatedAt: nowIso(ctx) })
        .where(and(eq(polls.id, id), eq(polls.status, "aktif"))),
    ]);
    await tally(ctx, id).close();
    const now = nowIso(ctx);
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
