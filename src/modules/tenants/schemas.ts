import { z } from "zod";
import { ListQuery } from "../../core/db/paging";
import { SUBSCRIPTION_STATUSES, TENANT_STATUSES } from "../../core/db/platform-schema";
import { FEATURE_FLAGS } from "../../core/flags";
import { Line, Slug } from "../../core/schemas";

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

export const CreateTenantInput = z.object({
  slug: Slug,
  name: Line(120, 3),
  type: z.enum(["RT", "RW"]),
  parentSlug: Slug.optional(),
  flags: Flags.partial().optional(),
});
export type CreateTenantInput = z.infer<typeof CreateTenantInput>;

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
});
export type TenantListQuery = z.infer<typeof TenantListQuery>;
