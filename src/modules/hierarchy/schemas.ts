import { z } from "zod";
import { Slug } from "../../core/schemas";

export const ChildTenant = z
  .object({ slug: z.string(), name: z.string(), linkedAt: z.string() })
  .openapi("ChildTenant");

export const ChildList = z.object({ items: z.array(ChildTenant) }).openapi("ChildTenantList");

export const LinkChildInput = z.object({ slug: Slug });
export type LinkChildInput = z.infer<typeof LinkChildInput>;

export const SlugParam = z.object({ slug: Slug });

const Arrears = z.object({
  amount: z.number().int().describe("Rupiah owed"),
  units: z.number().int().describe("Housing units with unpaid dues"),
});

const Figures = z.object({
  residents: z.number().int(),
  duesArrears: Arrears,
  lettersAwaitingProcessing: z.number().int(),
  complaintsOpen: z.number().int(),
});
export type Figures = z.infer<typeof Figures>;

export const HierarchySummary = z
  .object({
    children: z.array(
      z.object({
        slug: z.string(),
        name: z.string(),
        figures: Figures.nullable(),
        /** Why this RT's figures are missing (suspended, or its database could not be read). */
        error: z.string().nullable(),
      }),
    ),
    total: Figures,
    generatedAt: z.string(),
  })
  .openapi("HierarchySummary");
