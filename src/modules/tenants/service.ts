import { and, asc, eq, gt, type SQL } from "drizzle-orm";
import { auditInsert } from "../../core/audit";
import type { PlatformCtx } from "../../core/context";
import { platformDb } from "../../core/db/platform";
import { tenants } from "../../core/db/platform-schema";
import { Conflict, Invalid, NotFound, Unavailable } from "../../core/errors";
import { defaultFlags, parseFlags } from "../../core/flags";
import { newId } from "../../core/ids";
import { forgetTenant, migrateSlot, slotCount } from "../../core/tenancy";
import type { CreateTenantInput, TenantListQuery, UpdateTenantInput } from "./schemas";

type TenantRow = typeof tenants.$inferSelect;

export function presentTenant(row: TenantRow) {
  return {
    id: row.id,
    slug: row.slug,
    name: row.name,
    type: row.type,
    parentId: row.parentId,
    flags: parseFlags(row.flags),
    slot: row.slot,
    status: row.status,
    createdAt: row.createdAt,
    updatedAt: row.updatedAt,
  };
}

/**
 * The lowest free slot is chosen and taken in one statement, against unique indexes on slug and slot:
 * two concurrent creates can never share a slot, and the loser of a slot race simply tries the next.
 */
const CLAIM_SQL = `
INSERT INTO tenants (id, slug, name, type, parent_id, flags, slot, status, updated_at)
SELECT ?1, ?2, ?3, ?4, ?5, ?6, free.n, 'provisioning', ?7
FROM (
  WITH RECURSIVE seq(n) AS (SELECT 1 UNION ALL SELECT n + 1 FROM seq WHERE n < ?8)
  SELECT n FROM seq WHERE n NOT IN (SELECT slot FROM tenants) ORDER BY n LIMIT 1
) AS free
RETURNING slot`;

async function resolveParent(ctx: PlatformCtx, input: CreateTenantInput): Promise<string | null> {
  if (!input.parentSlug) {
    return null;
  }
  if (input.type !== "RT") {
    throw new Invalid("invalid_parent", "Only an RT can have a parent RW.", [
      { field: "parentSlug", message: "only for type RT" },
    ]);
  }
  const parent = await platformDb(ctx.env)
    .select()
    .from(tenants)
    .where(eq(tenants.slug, input.parentSlug))
    .get();
  if (parent?.type !== "RW") {
    throw new Invalid("invalid_parent", "The parent must be an existing RW tenant.", [
      { field: "parentSlug", message: "no RW tenant with this slug" },
    ]);
  }
  return parent.id;
}

export async function createTenant({ ctx, input }: { ctx: PlatformCtx; input: CreateTenantInput }) {
  const db = platformDb(ctx.env);
  const parentId = await resolveParent(ctx, input);
  const flags = { ...defaultFlags(), ...input.flags };
  const id = newId();
  const now = new Date().toISOString();
  const slots = slotCount(ctx.env);
  let slot: number | undefined;
  for (let attempt = 0; attempt < 5 && slot === undefined; attempt++) {
    try {
      const row = await ctx.env.PLATFORM_DB.prepare(CLAIM_SQL)
        .bind(id, input.slug, input.name, input.type, parentId, JSON.stringify(flags), now, slots)
        .first<{ slot: number }>();
      if (!row) {
        throw new Unavailable("no_free_slot", "Every tenant database slot is taken; add slots and redeploy.");
      }
      slot = row.slot;
    } catch (error) {
      const message = String(error);
      if (message.includes("tenants.slug")) {
        throw new Conflict("slug_taken", `The slug ${input.slug} is already taken.`);
      }
      if (!message.includes("tenants.slot")) {
        throw error;
      }
    }
  }
  if (slot === undefined) {
    throw new Unavailable("no_free_slot", "Could not claim a tenant database slot; try again.");
  }
  // If migration fails here the row stays `provisioning`; the next request for this tenant finishes it.
  await migrateSlot(ctx.env, slot);
  const [, , created] = await db.batch([
    db
      .update(tenants)
      .set({ status: "active", updatedAt: new Date().toISOString() })
      .where(eq(tenants.id, id)),
    auditInsert(db, ctx, {
      tenantId: id,
      action: "tenant.create",
      targetType: "tenant",
      targetId: id,
      detail: { slug: input.slug, type: input.type, slot },
    }),
    db.select().from(tenants).where(eq(tenants.id, id)),
  ]);
  const row = created[0];
  if (!row) {
    throw new Error("tenant vanished after creation");
  }
  return presentTenant(row);
}

export async function listTenants({ ctx, input }: { ctx: PlatformCtx; input: TenantListQuery }) {
  const filters: SQL[] = [];
  if (input.cursor) {
    filters.push(gt(tenants.id, input.cursor));
  }
  if (input.type) {
    filters.push(eq(tenants.type, input.type));
  }
  if (input.status) {
    filters.push(eq(tenants.status, input.status));
  }
  const rows = await platformDb(ctx.env)
    .select()
    .from(tenants)
    .where(and(...filters))
    .orderBy(asc(tenants.id))
    .limit(input.limit + 1);
  const page = rows.slice(0, input.limit);
  const nextCursor = rows.length > input.limit ? (page.at(-1)?.id ?? null) : null;
  return { items: page.map(presentTenant), nextCursor };
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
  const db = platformDb(ctx.env);
  const current = await db.select().from(tenants).where(eq(tenants.id, id)).get();
  if (!current) {
    throw new NotFound("Tenant");
  }
  if (input.status && current.status === "provisioning") {
    throw new Conflict("invalid_transition", "A tenant still being provisioned cannot change status.");
  }
  const flags = input.flags ? { ...parseFlags(current.flags), ...input.flags } : undefined;
  const [, , updated] = await db.batch([
    db
      .update(tenants)
      .set({
        ...(input.name !== undefined ? { name: input.name } : {}),
        ...(flags ? { flags: JSON.stringify(flags) } : {}),
        ...(input.status ? { status: input.status } : {}),
        updatedAt: new Date().toISOString(),
      })
      .where(eq(tenants.id, id)),
    auditInsert(db, ctx, {
      tenantId: id,
      action: "tenant.update",
      targetType: "tenant",
      targetId: id,
      detail: input as Record<string, unknown>,
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
