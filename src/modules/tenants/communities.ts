import { and, asc, eq, or, sql } from "drizzle-orm";
import { alias } from "drizzle-orm/sqlite-core";
import { platformAudit } from "../../core/audit";
import type { PlatformCtx } from "../../core/context";
import { afterCursor, keysetPage } from "../../core/db/paging";
import { TENANT_NEXT, tenants } from "../../core/db/platform-schema";
import { rowById } from "../../core/db/rows";
import { Invalid, InvalidTransition, NotFound } from "../../core/errors";
import { defaultFlags, parseFlags } from "../../core/flags";
import { newId } from "../../core/ids";
import { forgetTenant, tenantFields, tenantRowById } from "../../core/tenancy/contexts";
import { provisionTenant } from "../../core/tenancy/provision";
import { nowIso } from "../../core/time";
import { adminCounts, invitedAdminCount } from "../identity/service";
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

/**
 * `q`: the slug or the name contains it, ignoring case. `instr`, not LIKE, so `%` and `_` mean themselves;
 * slugs are lower case already, and `lower()` folds a name's ASCII letters (all a slug or search needs).
 */
function searchFilter(q: string | undefined) {
  const term = q?.toLowerCase();
  if (!term) {
    return undefined;
  }
  return or(sql`instr(${tenants.slug}, ${term}) > 0`, sql`instr(lower(${tenants.name}), ${term}) > 0`);
}

/** The same table again, as an RT's parent RW: the list names it in the same read (one join). */
const parentRw = alias(tenants, "parent_rw");

export async function listTenants({ ctx, input }: { ctx: PlatformCtx; input: TenantListQuery }) {
  const joined = await ctx.platform
    .select({ tenant: tenants, parentName: parentRw.name })
    .from(tenants)
    .leftJoin(parentRw, eq(parentRw.id, tenants.parentId))
    .where(
      and(
        ...afterCursor(tenants.id, input.cursor, "asc"),
        input.type ? eq(tenants.type, input.type) : undefined,
        input.status ? eq(tenants.status, input.status) : undefined,
        searchFilter(input.q),
      ),
    )
    .orderBy(asc(tenants.id))
    .limit(input.limit + 1);
  const rows = joined.map((r) => ({ ...r.tenant, parentName: r.parentName }));
  const page = keysetPage(rows, input.limit);
  const admins = await adminCounts({ ctx, tenantIds: page.items.map((t) => t.id) });
  return {
    items: page.items.map((t) => ({
      ...presentTenant(t),
      parentName: t.parentName,
      adminCount: admins.get(t.id) ?? 0,
    })),
    nextCursor: page.nextCursor,
  };
}

const ref = (row: TenantRow) => ({ id: row.id, slug: row.slug, name: row.name, status: row.status });

/**
 * `GET /api/platform/tenants/:id`: one community as the list shows it, with its parent RW, an RW's RTs
 * and how many invited admins never signed in. 404 `tenant_not_found` for an unknown id; a closed
 * community is still answered (its page says when it closed).
 */
export async function getTenant({ ctx, id }: { ctx: PlatformCtx; id: string }) {
  const row = await tenantRowById(ctx, id);
  const db = ctx.platform;
  const [parent, children, admins, invited] = await Promise.all([
    row.parentId ? rowById(db, tenants, row.parentId) : undefined,
    row.type === "RW"
      ? db.select().from(tenants).where(eq(tenants.parentId, row.id)).orderBy(asc(tenants.slug))
      : [],
    adminCounts({ ctx, tenantIds: [row.id] }),
    invitedAdminCount({ ctx, tenantId: row.id }),
  ]);
  return {
    ...presentTenant(row),
    parentName: parent?.name ?? null,
    adminCount: admins.get(row.id) ?? 0,
    invitedAdminCount: invited,
    parent: parent ? ref(parent) : null,
    children: children.map(ref),
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
