import { eq } from "drizzle-orm";
import { drizzle } from "drizzle-orm/d1";
import type { TenantDb, TenantInfo } from "./context";
import { applyMigrations } from "./db/migrate";
import { tenants } from "./db/platform-schema";
import { TENANT_MIGRATIONS } from "./db/tenant-migrations.generated";
import type { Bindings, PlatformDb } from "./env";
import { Forbidden, NotFound, Unavailable } from "./errors";
import { parseFlags } from "./flags";

const SLOT_RE = /^TENANT_DB_(\d+)$/;

export function slotBindingName(slot: number): string {
  return `TENANT_DB_${String(slot).padStart(2, "0")}`;
}

/** How many tenant database slots this deployment declares (wrangler.toml `TENANT_DB_NN`). */
export function slotCount(env: Bindings): number {
  let max = 0;
  for (const key of Object.keys(env)) {
    const match = SLOT_RE.exec(key);
    if (match) {
      max = Math.max(max, Number(match[1]));
    }
  }
  return max;
}

export function slotDatabase(env: Bindings, slot: number): D1Database {
  const binding = (env as unknown as Record<string, D1Database | undefined>)[slotBindingName(slot)];
  if (!binding) {
    throw new Unavailable("tenant_db_unavailable", "The tenant's database is not bound to this deployment.");
  }
  return binding;
}

export function tenantDb(env: Bindings, slot: number): TenantDb {
  return drizzle(slotDatabase(env, slot));
}

export async function migrateSlot(env: Bindings, slot: number): Promise<string[]> {
  return applyMigrations(slotDatabase(env, slot), TENANT_MIGRATIONS);
}

export function toTenantInfo(row: typeof tenants.$inferSelect): TenantInfo {
  return {
    id: row.id,
    slug: row.slug,
    name: row.name,
    type: row.type,
    parentId: row.parentId,
    flags: parseFlags(row.flags),
    slot: row.slot,
    status: row.status,
  };
}

/**
 * Slug → tenant, cached per isolate. Flags and status change rarely and the operator route that
 * changes them evicts its own isolate's entry; other isolates see the change within the TTL.
 */
const CACHE_TTL_MS = 30_000;
const cache = new Map<string, { tenant: TenantInfo; expires: number }>();

export function forgetTenant(slug: string): void {
  cache.delete(slug);
}

export async function findTenantBySlug(platform: PlatformDb, slug: string): Promise<TenantInfo | null> {
  const hit = cache.get(slug);
  if (hit && hit.expires > Date.now()) {
    return hit.tenant;
  }
  const row = await platform.select().from(tenants).where(eq(tenants.slug, slug)).get();
  if (!row) {
    cache.delete(slug);
    return null;
  }
  const tenant = toTenantInfo(row);
  if (tenant.status !== "provisioning") {
    cache.set(slug, { tenant, expires: Date.now() + CACHE_TTL_MS });
  }
  return tenant;
}

/**
 * The tenant a request acts in. A tenant left `provisioning` by a create that failed half-way is
 * finished here on first use (migrations are idempotent), so no operator has to repair it.
 */
export async function resolveTenant(env: Bindings, platform: PlatformDb, slug: string): Promise<TenantInfo> {
  const tenant = await findTenantBySlug(platform, slug);
  if (!tenant) {
    throw new NotFound("Tenant", "tenant_not_found");
  }
  if (tenant.status === "suspended") {
    throw new Forbidden("tenant_suspended", "This community's account is suspended.");
  }
  if (tenant.status === "provisioning") {
    await migrateSlot(env, tenant.slot);
    await platform
      .update(tenants)
      .set({ status: "active", updatedAt: new Date().toISOString() })
      .where(eq(tenants.id, tenant.id));
    forgetTenant(slug);
    return { ...tenant, status: "active" };
  }
  return tenant;
}
