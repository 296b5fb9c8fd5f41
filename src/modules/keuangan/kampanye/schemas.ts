import { z } from "zod";
import { ListQuery } from "../../../core/db/paging";
import { Line, Paragraph } from "../../../core/schemas";
import { Day } from "../periods";
import { FileId, Rupiah } from "../schemas-shared";

// --- campaigns and donations -------------------------------------------------------------------

export const CampaignInput = z.object({
  title: Line(150, 3),
  description: Paragraph(5000, 3),
  target: Rupiah,
  deadline: Day,
  coverFileId: FileId.optional().describe("An uploaded cover image (POST /api/files, purpose sampul)"),
});
export type CampaignInput = z.infer<typeof CampaignInput>;

export const CampaignUpdate = CampaignInput.partial().extend({
  status: z.enum(["aktif", "selesai", "dibatalkan"]).optional(),
});
export type CampaignUpdate = z.infer<typeof CampaignUpdate>;

export const CampaignListQuery = ListQuery.extend({
  status: z.enum(["aktif", "selesai", "dibatalkan"]).optional(),
});
export type CampaignListQuery = z.infer<typeof CampaignListQuery>;

const Progress = z.object({
  confirmed: z.number().int(),
  percent: z.number(),
  donors: z.number().int(),
});

export const Campaign = z
  .object({
    id: z.string(),
    title: z.string(),
    description: z.string(),
    target: z.number().int(),
    deadline: z.string(),
    status: z.enum(["aktif", "selesai", "dibatalkan"]),
    coverUrl: z.string().nullable(),
    progress: Progress,
    createdAt: z.string(),
    updatedAt: z.string(),
  })
  .openapi("Campaign");

export const Donation = z
  .object({
    id: z.string(),
    campaignId: z.string(),
    donorName: z.string().nullable().describe("Hidden (null) for anonymous donations, except to finance"),
    anonymous: z.boolean(),
    amount: z.number().int(),
    note: z.string().nullable(),
    status: z.enum(["dijanjikan", "dikonfirmasi", "ditolak"]),
    cashEntryId: z.string().nullable(),
    createdAt: z.string(),
  })
  .openapi("Donation");

export const CampaignDetail = Campaign.extend({ donations: z.array(Donation) }).openapi("CampaignDetail");

export const DonationInput = z.object({
  amount: Rupiah,
  anonymous: z.boolean().default(false),
  note: Paragraph(500, 0).optional(),
  donorName: Line(120, 2)
    .optional()
    .describe(
      "Cash in hand recorded by a finance officer: who gave it. It waits for another officer when it names the officer or takes their own booked cash of the month past the approval threshold. Without it, an officer's donation is their own pledge, which another officer confirms",
    ),
});
export type DonationInput = z.infer<typeof DonationInput>;

export const DonationDecision = z.object({ status: z.enum(["dikonfirmasi", "ditolak"]) });
export const DonationParams = z.object({
  id: z.string().min(1).max(64),
  donationId: z.string().min(1).max(64),
});
