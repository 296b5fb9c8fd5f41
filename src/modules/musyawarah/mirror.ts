import { and, eq, lte, sql } from "drizzle-orm";
import type { BatchItem } from "drizzle-orm/batch";
import type { TenantCtx } from "../../core/context";
import { nowIso } from "../../core/time";
import type { TallySnapshot } from "../../durable/pollTallyTypes";
import { polls, pollVoters } from "./tables";

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
  const now = nowIso(ctx);
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
