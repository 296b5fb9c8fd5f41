import { z } from "zod";
import { ListQuery } from "../../core/db/paging";
import { Line, Paragraph } from "../../core/schemas";
import { COMPLAINT_CATEGORIES, COMPLAINT_STATUSES, PROPOSAL_STATUSES } from "./tables";

const Day = z.iso.date();

export const CreateComplaintInput = z.object({
  title: Line(120, 3),
  description: Paragraph(2000, 5),
  category: z.enum(COMPLAINT_CATEGORIES),
  photo: z
    .string()
    .trim()
    .max(500)
    .describe(
      "The `url` POST /api/files answered for the complainant's own upload (purpose `pengaduan`); any other image is 422 `foreign_image`",
    )
    .optional(),
  location: Line(200, 2).optional(),
});
export type CreateComplaintInput = z.infer<typeof CreateComplaintInput>;

export const UpdateComplaintInput = z.object({
  status: z.enum(["diproses", "selesai", "ditolak"]),
  response: Paragraph(2000).optional(),
});
export type UpdateComplaintInput = z.infer<typeof UpdateComplaintInput>;

export const ComplaintListQuery = ListQuery.extend({
  status: z.enum(COMPLAINT_STATUSES).optional(),
  category: z.enum(COMPLAINT_CATEGORIES).optional(),
  from: Day.optional(),
  to: Day.optional(),
});
export type ComplaintListQuery = z.infer<typeof ComplaintListQuery>;

export const Complaint = z
  .object({
    id: z.string(),
    residentId: z.string(),
    residentName: z.string().nullable().optional(),
    title: z.string(),
    description: z.string(),
    category: z.enum(COMPLAINT_CATEGORIES),
    photo: z.string().nullable(),
    location: z.string().nullable(),
    status: z.enum(COMPLAINT_STATUSES),
    thread: z
      .array(
        z.object({
          byStaff: z.boolean(),
          status: z.string().nullable(),
          body: z.string().nullable(),
          createdAt: z.string(),
        }),
      )
      .optional(),
    createdAt: z.string(),
    updatedAt: z.string(),
  })
  .openapi("Pengaduan");

export const CreateSuggestionInput = z.object({
  body: Paragraph(2000, 3),
  anonymous: z.boolean().default(false),
});
export const SuggestionListQuery = ListQuery.extend({ unread: z.enum(["true", "false"]).optional() });
export type SuggestionListQuery = z.infer<typeof SuggestionListQuery>;
export const Suggestion = z
  .object({
    id: z.string(),
    anonymous: z.boolean(),
    senderId: z.string().nullable(),
    senderName: z.string().nullable(),
    body: z.string(),
    readAt: z.string().nullable(),
    createdAt: z.string(),
  })
  .openapi("Saran");
export const SuggestionReceipt = z.object({ id: z.string(), anonymous: z.boolean(), createdAt: z.string() });

export const CreateProposalInput = z.object({
  title: Line(120, 3),
  description: Paragraph(2000, 5),
  estimatedCost: z.number().int().min(0).max(10_000_000_000).optional(),
});
export type CreateProposalInput = z.infer<typeof CreateProposalInput>;
export const DecideProposalInput = z.object({
  status: z.enum(["diterima", "ditolak"]),
  note: Paragraph(1000),
});
export type DecideProposalInput = z.infer<typeof DecideProposalInput>;
export const ProposalListQuery = ListQuery.extend({ status: z.enum(PROPOSAL_STATUSES).optional() });
export type ProposalListQuery = z.infer<typeof ProposalListQuery>;
export const Proposal = z
  .object({
    id: z.string(),
    residentId: z.string(),
    title: z.string(),
    description: z.string(),
    estimatedCost: z.number().int().nullable(),
    status: z.enum(PROPOSAL_STATUSES),
    note: z.string().nullable(),
    endorsements: z.number().int(),
    endorsedByMe: z.boolean(),
    createdAt: z.string(),
    updatedAt: z.string(),
  })
  .openapi("Usulan");
