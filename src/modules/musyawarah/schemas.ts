import { z } from "zod";
import { ListQuery } from "../../core/db/paging";
import { Line, Paragraph } from "../../core/schemas";

const Label = Line(200);
const Instant = z.iso.datetime({ offset: true });

export const Quorum = z
  .object({ kind: z.enum(["percent", "count"]), value: z.number().int().min(1) })
  .refine((q) => q.kind !== "percent" || q.value <= 100, {
    message: "a percentage is at most 100",
    path: ["value"],
  });

const pollFields = {
  title: Line(200, 3),
  description: Paragraph(5000, 0).nullable().optional(),
  options: z
    .array(Label)
    .min(2)
    .max(20)
    .refine((labels) => new Set(labels.map((l) => l.toLowerCase())).size === labels.length, {
      message: "options must be distinct",
    }),
  startsAt: Instant,
  endsAt: Instant.describe("After startsAt (400 `invalid_schedule` otherwise)"),
  quorum: Quorum.nullable().optional(),
  anonymous: z.boolean().optional(),
  multipleChoice: z.boolean().optional(),
  maxChoices: z.number().int().min(1).max(20).optional(),
  voterScope: z.enum(["warga", "kk"]).optional(),
  resultsVisibility: z.enum(["always", "after_close"]).optional(),
};

export const CreatePollInput = z.object({
  ...pollFields,
  status: z.enum(["draft", "aktif"]).default("draft"),
});
export type CreatePollInput = z.infer<typeof CreatePollInput>;

export const UpdatePollInput = z
  .object({
    ...Object.fromEntries(Object.entries(pollFields).map(([k, v]) => [k, v.optional()])),
    status: z.enum(["draft", "aktif", "ditutup"]).optional(),
  } as { [K in keyof typeof pollFields]: z.ZodOptional<(typeof pollFields)[K]> } & {
    status: z.ZodOptional<z.ZodEnum<{ draft: "draft"; aktif: "aktif"; ditutup: "ditutup" }>>;
  })
  .refine((v) => Object.keys(v).length > 0, { message: "nothing to change" });
export type UpdatePollInput = z.infer<typeof UpdatePollInput>;

export const VoteInput = z.object({ optionIds: z.array(z.string().min(1).max(64)).min(1).max(20) });
export type VoteInput = z.infer<typeof VoteInput>;

export const PollListQuery = ListQuery.extend({
  status: z
    .enum(["draft", "aktif", "ditutup"])
    .optional()
    .describe("Anyone but staff sees only `aktif` polls, so another status gives them an empty page"),
});
export type PollListQuery = z.infer<typeof PollListQuery>;

const Result = z.object({ optionId: z.string(), label: z.string(), count: z.number().int() });

export const Poll = z
  .object({
    id: z.string(),
    title: z.string(),
    description: z.string().nullable(),
    options: z.array(z.object({ id: z.string(), label: z.string() })),
    startsAt: z.string(),
    endsAt: z.string(),
    status: z.enum(["draft", "aktif", "ditutup"]),
    quorum: z.object({ kind: z.enum(["percent", "count"]), value: z.number().int() }).nullable(),
    anonymous: z.boolean(),
    multipleChoice: z.boolean(),
    maxChoices: z.number().int(),
    voterScope: z.enum(["warga", "kk"]),
    resultsVisibility: z.enum(["always", "after_close"]),
    /** Null while hidden from the caller (`after_close` before closing). */
    results: z.array(Result).nullable(),
    turnout: z.object({ ballots: z.number().int(), eligibleVoters: z.number().int().nullable() }),
    quorumReached: z.boolean().nullable(),
    hasVoted: z.boolean().optional(),
    createdAt: z.string(),
    updatedAt: z.string(),
    openedAt: z.string().nullable(),
    closedAt: z.string().nullable(),
  })
  .openapi("Poll");

export const VoteRecord = z
  .object({
    userId: z.string(),
    name: z.string().nullable(),
    castAt: z.string(),
    /** Absent for anonymous polls: they record who voted, never what. */
    optionIds: z.array(z.string()).optional(),
  })
  .openapi("PollVote");
