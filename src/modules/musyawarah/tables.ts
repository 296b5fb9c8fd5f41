import { sql } from "drizzle-orm";
import { index, integer, primaryKey, sqliteTable, text } from "drizzle-orm/sqlite-core";
import { rowVersion } from "../../core/db/row-version";

export type PollOption = { id: string; label: string };

/**
 * A poll's definition lives here; its ballots live in the poll's PollTally Durable Object, which
 * mirrors counts and the list of who voted back into these tables for lists and the dashboard.
 */
export const polls = sqliteTable(
  "polls",
  {
    id: text("id").primaryKey(),
    /** ETag and If-Match (ADR 0035); moved by a trigger, never set here. */
    rowVersion: rowVersion(),
    title: text("title").notNull(),
    description: text("description"),
    /** Frozen once the poll is published. */
    options: text("options", { mode: "json" }).$type<PollOption[]>().notNull(),
    startsAt: text("starts_at").notNull(),
    endsAt: text("ends_at").notNull(),
    status: text("status", { enum: ["draft", "aktif", "ditutup"] }).notNull(),
    quorumKind: text("quorum_kind", { enum: ["percent", "count"] }),
    quorumValue: integer("quorum_value"),
    anonymous: integer("anonymous", { mode: "boolean" }).notNull(),
    multipleChoice: integer("multiple_choice", { mode: "boolean" }).notNull(),
    maxChoices: integer("max_choices").notNull(),
    voterScope: text("voter_scope", { enum: ["warga", "kk"] }).notNull(),
    resultsVisibility: text("results_visibility", { enum: ["always", "after_close"] }).notNull(),
    /** Taken when the poll opens. */
    eligibleVoters: integer("eligible_voters"),
    /** Mirrored from the Durable Object: `{ optionId: count }`, ballots, and the tally sequence. */
    results: text("results", { mode: "json" }).$type<Record<string, number>>().notNull().default({}),
    ballots: integer("ballots").notNull().default(0),
    resultsSeq: integer("results_seq").notNull().default(0),
    createdBy: text("created_by").notNull(),
    createdAt: text("created_at").notNull().default(sql`(strftime('%Y-%m-%dT%H:%M:%fZ','now'))`),
    updatedAt: text("updated_at").notNull(),
    openedAt: text("opened_at"),
    closedAt: text("closed_at"),
  },
  (t) => [index("polls_status_idx").on(t.status)],
);

/**
 * Who has used which ballot (never what was chosen), mirrored from the tally for `hasVoted` in lists.
 * `voterKey` is `user:<id>` or, for household polls, `unit:<id>`: one ballot per household.
 */
export const pollVoters = sqliteTable(
  "poll_voters",
  {
    pollId: text("poll_id").notNull(),
    voterKey: text("voter_key").notNull(),
    userId: text("user_id").notNull(),
    votedAt: text("voted_at").notNull(),
  },
  (t) => [primaryKey({ columns: [t.pollId, t.voterKey] })],
);
