import {
  type Actor,
  effectiveRoles,
  type PlatformCtx,
  type TenantCtx,
  type TenantRole,
} from "../../src/core/context";
import type { DbScope } from "../../src/core/db/handles";
import { platformDb, scopedPlatformDb } from "../../src/core/db/platform";
import { loadConfig } from "../../src/core/env";
import { guardedTenantDb } from "../../src/core/tenancy/slots";
import { serviceEnv, tenantCtxFor } from "../../src/core/tenancy/system";
import { systemNow } from "../../src/core/time";
import { bindings, callJson, dutiesFor } from "./harness";

/** A tenant context for a member, built through core as a route would, to call verbs directly. */
export async function memberCtx(slug: string, member: { id: string }, role: TenantRole): Promise<TenantCtx> {
  const duties = dutiesFor(role);
  const actor: Actor = {
    kind: "user",
    userId: member.id,
    roles: effectiveRoles(duties, role === "warga"),
    sessionId: "test",
    tenantSlug: slug,
  };
  const base = {
    actor,
    platform: platformDb(bindings),
    env: serviceEnv(bindings),
    config: loadConfig(bindings),
    requestId: `test-${slug}`,
    ip: null,
    now: systemNow,
  };
  return tenantCtxFor(base, slug);
}

/**
 * The same context with `scope` (one request's part, core/db/handles.ts) bound into its handles, as
 * `tenantCtx(c)` binds a request's: what a test attaches to `scope` rides in the context's writes.
 */
export function inScope<C extends PlatformCtx>(ctx: C, scope: DbScope): C {
  const platform = scopedPlatformDb(bindings, scope);
  if (!("tenant" in ctx)) {
    return { ...ctx, platform };
  }
  const tenant = (ctx as unknown as TenantCtx).tenant;
  return { ...ctx, platform, db: guardedTenantDb(bindings, tenant.slot, (raw) => raw, scope) };
}

/**
 * The same context, except that another writer gets in between the verb's read and its batch: `rival`
 * runs on the real database just before the verb's `db.batch`. This is a lost race made deterministic.
 */
export function losingRace(ctx: TenantCtx, rival: (db: TenantCtx["db"]) => Promise<unknown>): TenantCtx {
  const db = new Proxy(ctx.db, {
    get(target, prop) {
      if (prop === "batch") {
        return async (items: Parameters<TenantCtx["db"]["batch"]>[0]) => {
          await rival(target);
          return target.batch(items);
        };
      }
      const value = Reflect.get(target, prop, target);
      return typeof value === "function" ? value.bind(target) : value;
    },
  });
  return { ...ctx, db };
}

/** The community's audit trail as its admin reads it (GET /api/audit). */
export async function auditTrail(adminToken: string, query = "limit=100") {
  const res = await callJson<{
    items: { action: string; targetId: string | null; detail: Record<string, unknown> | null }[];
  }>(`/api/audit?${query}`, { token: adminToken });
  if (res.status !== 200) {
    throw new Error(`audit read failed: ${res.status} ${JSON.stringify(res.body)}`);
  }
  // Newest first from the route; oldest first reads like the story of the object.
  return res.body.items.reverse();
}
