import { eq } from "drizzle-orm";
import type { TenantInfo } from "../context";
import { tenants } from "../db/platform-schema";
import type { Bindings, PlatformDb } from "../env";
import { Forbidden, Gone, NotFound } from "../errors";
import { type FeatureFlag, parseFlags } from "../flags";
import { nowIso, platformClock } from "../time";
import { claimSlotDatabase } from "./slots";

export const tenantClosed = () =>
  new Gone("tenant_closed", "This community has been closed and no longer uses the service.");

/** What every view of a tenant row shares (a live tenant's context, a closed one's, the operator's list). */
export function tenantFields(row: typeof tenants.$inferSelect) {
  return {
    id: row.id,
    slug: row.slug,
    name: row.name,
    type: row.type,
    parentId: row.parentId,
    flags: parseFlags(row.flags),
    subscription: row.subscriptionStatus,
  };
}

/** A live tenant's record; a closed one (status `ditutup`, its slot returned to the pool) is 410. */
export function toTenantInfo(row: typeof tenants.$inferSelect): TenantInfo {
  if (row.status === "ditutup" || row.slot === null) {
    throw tenantClosed();
  }
  return { ...tenantFields(row), slot: row.slot, status: row.status };
}

/**
 * Slug → tenant, cached per isolate for 30 s (ADR 0007); a closed tenant is 410 `tenant_closed`. Flags and status change rarely and the
 * operator route that changes them evicts its own isolate's entry; other isolates see the change
 * within the TTL, which is the longest a suspension or a flag switch takes to reach every request.
 */
export const CACHE_TTL_MS = 30_000;
const cache = new Map<string, { tenant: TenantInfo | null; expires: number }>();

export function forgetTenant(slug: string): void {
  cache.delete(slug);
}

export async function findTenantBySlug(platform: PlatformDb, slug: string): Promise<TenantInfo | null> {
  const hit = cache.get(slug);
  if (hit && hit.expires > Date.now()) {
    if (!hit.tenant) {
      throw tenantClosed();
    }
    return hit.tenant;
  }
  const row = await platform.select().from(tenants).where(eq(tenants.slug, slug)).get();
  if (!row) {
    cache.delete(slug);
    return null;
  }
  if (row.status === "ditutup") {
    // Closed for good: remembered like a live tenant, so a closed community costs no read per request.
    cache.set(slug, { tenant: null, expires: Date.now() + CACHE_TTL_MS });
    throw tenantClosed();
  }
  const tenant = toTenantInfo(row);
  if (tenant.status !== "provisioning") {
    cache.set(slug, { tenant, expires: Date.now() + CACHE_TTL_MS });
  }
  return tenant;
}

export interface ResolveOptions {
  /** The module the caller is about to use: switched off → 403 feature_disabled. */
  flag?: FeatureFlag;
  /**
   * Bookkeeping of work already accepted (a poll's ballots mirrored after a suspension) must still
   * land; only core's system contexts set this.
   */
  allowSuspended?: boolean;
}

/**
 * The one gate every tenant context passes: the tenant exists, is not suspended, and has the module
 * on. A tenant left `provisioning` by a create that failed half-way is finished here on first use
 * (migrations are idempotent), so no operator has to repair it.
 */
export async function resolveTenant(
  env: Bindings,
  platform: PlatformDb,
  slug: string,
  options: ResolveOptions = {},
): Promise<TenantInfo> {
  let tenant = await findTenantBySlug(platform, slug);
  if (!tenant) {
    throw new NotFound("Tenant", "tenant_not_found");
  }
  if (tenant.status === "suspended" && !options.allowSuspended) {
    throw new Forbidden("tenant_suspended", "This community's account is suspended.");
  }
  if (tenant.status === "provisioning") {
    await claimSlotDatabase(env, tenant.slot, tenant.id);
    // The guard resolves a tenant before any context exists: the platform's clock, which every context reads.
    await platform
      .update(tenants)
      .set({ status: "active", updatedAt: nowIso(platformClock) })
      .where(eq(tenants.id, tenant.id));
    forgetTenant(slug);
    tenant = { ...tenant, status: "active" };
  }
  if (options.flag && !tenant.flags[options.flag]) {
    throw new Forbidden("feature_disabled", `The ${options.flag} module is switched off for this community.`);
  }
  return tenant;
}
