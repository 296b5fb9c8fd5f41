import { and, eq, inArray, sql } from "drizzle-orm";
import { audit } from "../../core/audit";
import type { TenantCtx } from "../../core/context";
import { rowById } from "../../core/db/rows";
import { NotFound } from "../../core/errors";
import { hasRole, ROLES, requireUser } from "../../core/http/access";
import type { PollCard, TallySnapshot } from "../../durable/pollTallyTypes";
import { membershipIn, residentsOf } from "../identity/service";
import { type PollOption, polls, pollVoters } from "./tables";

export type PollRow = typeof polls.$inferSelect;
export type Option = PollOption;
/** What `presentPoll` needs of a poll: a row of the tenant database, or the tally's card plus live counts. */
type PresentedRow = PollCard & Pick<PollRow, "status" | "results" | "ballots" | "closedAt">;

/**
 * Polls belong to the staff (bendahara, sekretaris, admin; spec: S), as the route table says: they alone
 * see drafts, every poll in the list, results before closing and who voted. Residents vote. A staff member
 * who also lives here holds a ballot too, and gets `hasVoted`.
 */
export const isOrganiser = (ctx: TenantCtx) => hasRole(ctx, ROLES.STAFF);
export const isVoter = (ctx: TenantCtx) => hasRole(ctx, ROLES.RESIDENT);

export function tally(ctx: TenantCtx, pollId: string) {
  const ns = ctx.env.POLL_TALLY;
  return ns.get(ns.idFromName(`${ctx.tenant.slug}:${pollId}`));
}

export const pollAudit = (ctx: TenantCtx, action: string, pollId: string, detail?: Record<string, unknown>) =>
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
export async function loadPoll(ctx: TenantCtx, id: string): Promise<PollRow> {
  const row = await rowById(ctx.db, polls, id);
  if (!row || (row.status === "draft" && !isOrganiser(ctx))) {
    throw new NotFound("Poll");
  }
  return row;
}

/** The ballot keys a resident holds: their own, and their household's for `kk` polls. */
async function voterKeys(ctx: TenantCtx): Promise<{ user: string; unit: string | null }> {
  const { userId } = requireUser(ctx);
  const membership = await membershipIn({ ctx });
  return { user: `user:${userId}`, unit: membership?.unitId ? `unit:${membership.unitId}` : null };
}

/** The key of the ballot a poll gives this resident; only household polls need the membership read. */
export async function voterKeyFor(ctx: TenantCtx, row: PollRow): Promise<string | null> {
  return row.voterScope === "kk" ? (await voterKeys(ctx)).unit : `user:${requireUser(ctx).userId}`;
}

/**
 * Whether the resident's own ballot key is among a poll's voters: a correlated lookup on the
 * `poll_voters` primary key, evaluated inside the page query, so a resident's list page is one round trip.
 */
export const votedAs = (key: string) =>
  sql<number>`EXISTS (SELECT 1 FROM ${pollVoters} WHERE ${pollVoters.pollId} = ${polls.id} AND ${pollVoters.voterKey} = ${key})`;

/**
 * Household (`kk`) polls of the page whose ballot the resident's household has used. Only pages that hold
 * such polls pay for it: the member's unit is in the platform database, so it cannot join the page query.
 */
export async function householdVotedIn(ctx: TenantCtx, pollIds: string[]): Promise<Set<string>> {
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

export async function eligibleVoters(ctx: TenantCtx, scope: "warga" | "kk"): Promise<string[]> {
  const residents = await residentsOf({ ctx });
  if (scope === "warga") {
    return residents.map((r) => `user:${r.userId}`);
  }
  return [...new Set(residents.flatMap((r) => (r.unitId ? [`unit:${r.unitId}`] : [])))];
}
