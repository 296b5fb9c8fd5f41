import { and, asc, eq } from "drizzle-orm";
import { platformAudit } from "../../core/audit";
import type { PlatformCtx } from "../../core/context";
import { afterCursor, keysetPage } from "../../core/db/paging";
import { TENANT_NEXT, tenants } from "../../core/db/platform-schema";
import { rowById } from "../../core/db/rows";
import { Invalid, InvalidTransition, NotFound } from "../../core/errors";
import { defaultFlags, parseFlags } from "../../core/flags";
import { newId } from "../../core/ids";
import { forgetTenant, tenantFields } from "../../core/tenancy/contexts";
import { provisionTenant } from "../../core/tenancy/provision";
import { nowIso } from "../../core/time";
import { adminCounts } from "../identity/service";
import { commitAdminInvitation, invitingCtx, tenantClosed } from "./admins";
import type { CreateTenantInput, TenantListQuery, UpdateTenantInput } from "./schemas";

type TenantRow = typeof tenants.$inferSelect;

export function presentTenant(row: TenantRow) {
  return {
    ...tenantFields(row),
    slot: row.slot,
    status: row.status,
    closedAt: row.closedAt,
    linkedAt: row.parentId ? (row.linkedAt ?? row.createdAt) : null,
    createdAt: row.createdAt,
    updatedAt: row.updatedAt,
  };
}

async function resolveParent(
  ctx: PlatformCtx,
  input: { type: "RT" | "RW"; parentSlug?: string | null },
): Promise<string | null> {
  if (!input.parentSlug) {
    return null;
  }
  if (input.type !== "RT") {
    throw new Invalid("invalid_parent", "Only an RT can have a parent RW.", [
      { field: "parentSlug", message: "only for type RT" },
    ]);
  }
  const parent = await ctx.platform.select().from(tenants).where(eq(tenants.slug, input.parentSlug)).get();
  if (parent?.type !== "RW" || parent.status === "ditutup") {
    throw new Invalid("invalid_parent", "The parent must be an existing RW tenant.", [
      { field: "parentSlug", message: "no RW tenant with this slug" },
    ]);
  }
  return parent.id;
}

/**
 * Core claims a free database slot and migrates it, leaving the row `provisioning`; marking it active,
 * recording the creation and the first admin's invitation (a new account with its set-password link,
 * or a join link for an existing account: identity's `inviteAdmin`) are one platform batch, so an
 * active tenant always has its audit row and its admin invited. The link is sent after that batch;
 * the answer says how it went out, never the link.
 */
export async function createTenant({ ctx, input }: { ctx: PlatformCtx; input: CreateTenantInput }) {
  const parentId = await resolveParent(ctx, input);
  const id = newId();
  const slot = await provisionTenant(ctx, {
    id,
    slug: input.slug,
    name: input.name,
    type: input.type,
    parentId,
    flags: { ...defaultFlags(), ...input.flags },
  });
  const db = ctx.platform;
  let row: TenantRow | undefined;
  const admin = await commitAdminInvitation(
    invitingCtx(ctx, { id, name: input.name }),
    input.admin,
    async (invitation) => {
      const [activated] = await db.batch([
        db
          .update(tenants)
          .set({ status: "active", linkedAt: parentId ? nowIso(ctx) : null, updatedAt: nowIso(ctx) })
          .where(eq(tenants.id, id))
          .returning(),
        platformAudit(ctx, {
          tenantId: id,
          action: "tenant.create",
          targetType: "tenant",
          targetId: id,
          detail: { slug: input.slug, type: input.type, slot, admin: { outcome: invitation.outcome } },
        }),
        ...invitation.statements,
      ]);
      row = activated[0];
    },
  );
  if (!row) {
    throw new Error("tenant vanished after creation");
  }
  return { ...presentTenant(row), adminInvitation: await admin.send() };
}

export async function listTenants({ ctx, input }: { ctx: PlatformCtx; input: TenantListQuery }) {
  const rows = await ctx.platform
    .select()
    .from(tenants)
    .where(
      and(
        ...afterCursor(tenants.id, input.cursor, "asc"),
        input.type ? eq(tenants.type, input.type) : undefined,
        input.status ? eq(tenants.status, input.status) : undefined,
      ),
    )
    .orderBy(asc(tenants.id))
    .limit(input.limit + 1);
  const page = keysetPage(rows, input.limit);
  const admins = await adminCounts({ ctx, tenantIds: page.items.map((t) => t.id) });
  return {
    items: page.items.map((t) => ({ ...presentTenant(t), adminCount: admins.get(t.id) ?? 0 })),
    nextCursor: page.nextCursor,
  };
}

export async function updateTenant({
  ctx,
  id,
  input,
}: {
  ctx: PlatformCtx;
  id: string;
  input: UpdateTenantInput;
}) {
  const db = ctx.platform;
  const current = await rowById(db, tenants, id);
  if (!current) {
    throw new NotFound("Tenant");
  }
  if (current.status === "ditutup") {
    throw tenantClosed();
  }
  if (input.status && current.status === "provisioning") {
    throw new InvalidTransition(
      "A tenant still being provisioned cannot change status.",
      TENANT_NEXT[current.status],
    );
  }
  const flags = input.flags ? { ...parseFlags(current.flags), ...input.flags } : undefined;
  // The operator sets or clears an RT's parent RW directly, without the RT's consent that an RW head's
  // link-child waits for; setting a parent ends any RW's pending request in the same statement.
  const parentId =
    input.parentSlug === undefined ? undefined : await resolveParent(ctx, { type: current.type, ...input });
  if (parentId !== undefined && parentId === current.id) {
    throw new Invalid("invalid_parent", "A tenant cannot be its own parent.", [
      { field: "parentSlug", message: "the tenant itself" },
    ]);
  }
  const parentChanged = parentId !== undefined && parentId !== current.parentId;
  const [, , updated] = await db.batch([
    db
      .update(tenants)
      .set({
        ...(input.name !== undefined ? { name: input.name } : {}),
        ...(flags ? { flags: JSON.stringify(flags) } : {}),
        ...(input.status ? { status: input.status } : {}),
        ...(parentChanged ? { parentId, linkedAt: parentId ? nowIso(ctx) : null } : {}),
        ...(parentId ? { parentRequestId: null, parentRequestedAt: null } : {}),
        updatedAt: nowIso(ctx),
      })
      .where(eq(tenants.id, id)),
    platformAudit(ctx, {
      tenantId: id,
      action: "tenant.update",
      targetType: "tenant",
      targetId: id,
      detail: input,
    }),
    db.select().from(tenants).where(eq(tenants.id, id)),
  ]);
  forgetTenant(current.slug);
  const row = updated[0];
  if (!row) {
    throw new NotFound("Tenant");
  }
  return presentTenant(row);
}
