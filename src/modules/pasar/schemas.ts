import { z } from "zod";
import { ListQuery } from "../../core/db/paging";
import { Line, Paragraph } from "../../core/schemas";
import { PASAR_CATEGORIES, PASAR_CONDITIONS, PASAR_STATUSES } from "./tables";

export const MAX_PHOTOS = 5;

const Price = z
  .union([z.number().int().min(0).max(1_000_000_000_000), z.literal("nego")])
  .describe("Whole rupiah, or `nego`");

const PhotoIds = z
  .array(z.string().min(1).max(64))
  .max(MAX_PHOTOS)
  .refine((ids) => new Set(ids).size === ids.length, "the same photo twice")
  .describe("Ids from POST /api/files with purpose `pasar`, uploaded by the seller; at most 5, in order");

const ListingFields = {
  title: Line(120, 3),
  description: Paragraph(4000, 1),
  price: Price,
  category: z.enum(PASAR_CATEGORIES),
  condition: z
    .enum(PASAR_CONDITIONS)
    .nullable()
    .optional()
    .describe("Goods only: baru or bekas; none for jasa"),
  photoIds: PhotoIds.optional(),
};

export const CreateListingInput = z.object(ListingFields);
export type CreateListingInput = z.infer<typeof CreateListingInput>;

export const UpdateListingInput = z
  .object({
    ...ListingFields,
    status: z.enum(["aktif", "terjual"]).describe("The seller's own switch; disembunyikan is the staff's"),
  })
  .partial();
export type UpdateListingInput = z.infer<typeof UpdateListingInput>;

export const ModerationInput = z.object({
  status: z.enum(["disembunyikan", "aktif"]),
  reason: Paragraph(500, 3),
});
export type ModerationInput = z.infer<typeof ModerationInput>;

export const ListingListQuery = ListQuery.extend({
  q: z.string().trim().max(100).optional(),
  category: z.enum(PASAR_CATEGORIES).optional(),
  status: z
    .enum(PASAR_STATUSES)
    .optional()
    .describe("Staff only (to find hidden listings); others see aktif"),
});
export type ListingListQuery = z.infer<typeof ListingListQuery>;

export const ListingPhoto = z.object({ id: z.string(), url: z.string(), contentType: z.string() });

export const Listing = z
  .object({
    id: z.string(),
    sellerId: z.string(),
    sellerName: z.string().nullable(),
    title: z.string(),
    description: z.string(),
    price: Price,
    category: z.enum(PASAR_CATEGORIES),
    condition: z.enum(PASAR_CONDITIONS).nullable(),
    status: z.enum(PASAR_STATUSES),
    photos: z.array(ListingPhoto),
    whatsappUrl: z
      .string()
      .nullable()
      .optional()
      .describe("https://wa.me/62…?text=… from the seller's profile number (on one listing, not in lists)"),
    moderation: z
      .object({ reason: z.string(), at: z.string() })
      .nullable()
      .optional()
      .describe("The last moderation's reason: shown to the seller and to staff"),
    createdAt: z.string(),
    updatedAt: z.string(),
  })
  .openapi("PasarListing");
