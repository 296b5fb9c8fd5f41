import { z } from "zod";
import { ListQuery } from "../../core/db/paging";
import { SUBSCRIPTION_STATUSES, TENANT_STATUSES } from "../../core/db/platform-schema";
import { FEATURE_FLAGS } from "../../core/flags";
import { Email, IndonesianMobile, InvitationOutcome, Line, Slug } from "../../core/schemas";

export const Flags = z.object(
  Object.fromEntries(FEATURE_FLAGS.map((f) => [f, z.boolean()])) as {
    [K in (typeof FEATURE_FLAGS)[number]]: z.ZodBoolean;
  },
);

export const Tenant = z
  .object({
    id: z.string(),
    slug: z.string(),
    name: z.string(),
    type: z.enum(["RT", "RW"]),
    parentId: z.string().nullable(),
    linkedAt: z.string().nullable(),
    flags: Flags,
    /** Null once a closed community's database slot has been wiped and returned to the pool. */
    slot: z.number().int().nullable(),
    status: z.enum(TENANT_STATUSES),
    subscription: z.enum(SUBSCRIPTION_STATUSES),
    closedAt: z.string().nullable(),
    createdAt: z.string(),
    updatedAt: z.string(),
  })
  .openapi("Tenant");

/** Someone the operator invites as a community's admin: a name and at least one way to reach them. */
export const AdminInviteeInput = z
  .object({
    name: Line(120, 2),
    email: Email.optional(),
    whatsapp: IndonesianMobile.optional(),
  })
  .refine((v) => v.email !== undefined || v.whatsapp !== undefined, {
    message: "Give an email or a WhatsApp number (or both)",
    path: ["email"],
  });
export type AdminInviteeInput = z.infer<typeof AdminInviteeInput>;

/** What the operator learns of an invitation: how it went out, never its link or whether an account existed. */
export const AdminInvitation = z.object(InvitationOutcome.shape).openapi("AdminInvitation");

export const CreateTenantInput = z.object({
  slug: Slug,
  name: Line(120, 3),
  type: z.enum(["RT", "RW"]),
  parentSlug: Slug.optional(),
  flags: Flags.partial().optional(),
  /** The community's first admin, invited in the same step (issue 27). */
  admin: AdminInviteeInput,
});
export type CreateTenantInput = z.infer<typeof CreateTenantInput>;

export const CreatedTenant = Tenant.extend({ adminInvitation: AdminInvitation }).openapi("CreatedTenant");

export const TenantListItem = Tenant.extend({
  parentName: z
    .string()
    .nullable()
    .describe("An RT's parent RW by name, read with the list (null when unlinked, and for an RW)"),
  adminCount: z
    .number()
    .int()
    .describe(
      "Members holding the admin duty whose account is active and has signed in (set a password or signed in to this community); an invited admin who never did is not counted",
    ),
}).openapi("TenantListItem");

/** A community named beside another (its parent RW, an RW's RTs). */
const TenantRef = z.object({
  id: z.string(),
  slug: z.string(),
  name: z.string(),
  status: z.enum(TENANT_STATUSES),
});

/** One community as its page in the operator's console shows it: the list's fields and its neighbours. */
export const TenantDetail = TenantListItem.extend({
  parent: TenantRef.nullable().describe("An RT's parent RW (null when unlinked, and for an RW)"),
  children: z.array(TenantRef).describe("An RW's linked RTs, by slug (always empty for an RT)"),
  invitedAdminCount: z
    .number()
    .int()
    .describe(
      "Members holding the admin duty who were invited and never signed in: their link can be sent again",
    ),
}).openapi("TenantDetail");

export const CloseTenantInput = z.object({
  /** The tenant's slug typed again: closing wipes the community's database once its archive is made. */
  confirmSlug: z.string().trim().min(1).max(64),
});
export type CloseTenantInput = z.infer<typeof CloseTenantInput>;

export const ClosedTenant = z
  .object({
    tenant: Tenant,
    archiveId: z.string().describe("The final archive, built before the slot is emptied (kept 30 days)"),
  })
  .openapi("ClosedTenant");

export const UpdateTenantInput = z
  .object({
    name: Line(120, 3).optional(),
    flags: Flags.partial().optional(),
    status: z.enum(["active", "suspended"]).optional(),
    /** Links an RT to this RW (its slug), or unlinks it (null). */
    parentSlug: Slug.nullable().optional(),
  })
  .refine(
    (v) =>
      v.name !== undefined || v.flags !== undefined || v.status !== undefined || v.parentSlug !== undefined,
    { message: "Give at least one of name, flags, status, parentSlug" },
  );
export type UpdateTenantInput = z.infer<typeof UpdateTenantInput>;

export const TenantListQuery = ListQuery.extend({
  type: z.enum(["RT", "RW"]).optional(),
  status: z.enum(TENANT_STATUSES).optional(),
  q: z
    .string()
    .trim()
    .max(64)
    .optional()
    .describe(
      "Communities whose slug or name contains these characters, case-insensitive (`%` and `_` mean themselves); empty means no search",
    ),
});
export type TenantListQuery = z.infer<typeof TenantListQuery>;

/**
 * What a community's admin may know of its own account (issue 46: the console's settings): which of the
 * spec's modules are on. Read-only for the community: only the platform's operators switch a module
 * (PATCH /api/platform/tenants/:id).
 */
export const CommunityFeatures = z
  .object({
    slug: z.string(),
    name: z.string(),
    type: z.enum(["RT", "RW"]),
    flags: Flags.describe("The spec's feature flags: a module switched off answers 403 `feature_disabled`"),
    subscription: z.enum(SUBSCRIPTION_STATUSES),
    changedBy: z
      .literal("operator")
      .describe("Who may switch a module: the platform's operators only, never the community"),
  })
  .openapi("CommunityFeatures");
