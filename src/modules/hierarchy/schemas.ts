import { z } from "zod";
import { Slug } from "../../core/schemas";

export const ChildTenant = z
  .object({ slug: z.string(), name: z.string(), linkedAt: z.string() })
  .openapi("ChildTenant");

/** An RT asked to join this RW that has not answered yet: no figure of it is readable until it accepts. */
export const PendingChild = z
  .object({
    slug: z.string(),
    name: z.string(),
    requestedAt: z.string(),
    status: z.literal("menunggu"),
  })
  .openapi("PendingChildTenant");

export const ChildList = z
  .object({
    items: z.array(ChildTenant).describe("RTs that accepted this RW"),
    pending: z.array(PendingChild).describe("RTs asked to join, not answered yet"),
  })
  .openapi("ChildTenantList");

export const LinkChildInput = z.object({ slug: Slug });
export type LinkChildInput = z.infer<typeof LinkChildInput>;

const TenantRef = z.object({ slug: z.string(), name: z.string() });

/** `menunggu` until the RT's admin accepts; `disetujui` when the RT already is this RW's. */
export const LinkRequest = z
  .object({ child: TenantRef, status: z.enum(["menunggu", "disetujui"]) })
  .openapi("LinkChildRequest");

/** The RW that asked to become the caller's parent, as the RT's admin sees it. */
export const ParentRequest = z
  .object({ parent: TenantRef, requestedAt: z.string(), status: z.literal("menunggu") })
  .openapi("ParentRequest");

export const AcceptedParent = z.object({ parent: TenantRef, linkedAt: z.string() }).openapi("AcceptedParent");

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
        asOf: z
          .string()
          .nullable()
          .describe(
            "When this RT's figures were read from its database (kept figures, at most 15 minutes old); null with `error`",
          ),
        /** Why this RT's figures are missing (suspended, or its database could not be read). */
        error: z.string().nullable(),
      }),
    ),
    total: Figures,
    generatedAt: z.string(),
  })
  .openapi("HierarchySummary");
