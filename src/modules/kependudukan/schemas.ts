import { z } from "zod";

/** "a-3 " and "A3" are the same block on paper; store one spelling. */
export const normaliseBlock = (v: string) => v.trim().toUpperCase().replace(/\s+/g, " ");
export const normaliseHouseNumber = (v: string) => v.trim().toUpperCase().replace(/\s+/g, " ");

export const Unit = z
  .object({
    id: z.string(),
    block: z.string(),
    number: z.string(),
    latitude: z.number().nullable(),
    longitude: z.number().nullable(),
    createdAt: z.string(),
    updatedAt: z.string(),
  })
  .openapi("Unit");

export const CreateUnitInput = z
  .object({
    block: z.string().trim().min(1).max(20).transform(normaliseBlock),
    number: z.string().trim().min(1).max(20).transform(normaliseHouseNumber),
    latitude: z.number().min(-90).max(90).optional(),
    longitude: z.number().min(-180).max(180).optional(),
  })
  .refine((v) => (v.latitude === undefined) === (v.longitude === undefined), {
    message: "latitude and longitude go together",
    path: ["latitude"],
  });
export type CreateUnitInput = z.infer<typeof CreateUnitInput>;

export const UnitListQuery = z.object({
  limit: z.coerce.number().int().min(1).max(100).default(20),
  cursor: z.string().max(64).optional(),
  block: z.string().trim().min(1).max(20).transform(normaliseBlock).optional(),
});
export type UnitListQuery = z.infer<typeof UnitListQuery>;
