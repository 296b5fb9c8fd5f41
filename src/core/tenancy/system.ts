import { eq } from "drizzle-orm";
import type { Actor, PlatformCtx, ServiceEnv, TenantCtx, TenantInfo } from "../context";
import { platformDb } from "../db/platform";
import { tenants } from "../db/platform-schema";
import { guardNamespace, isNamespace } from "../dependency";
import { type Bindings, loadConfig } from "../env";
import type { FeatureFlag } from "../flags";
import { systemNow } from "../time";
import { type ResolveOptions, resolveTenant, toTenantInfo } from "./registry";
import { contextTenantDb, type RequestDb } from "./sessions";
import { isSlotBinding } from "./slots";

/**
 * The system-wide context builders and the way back to the full bindings: core's own (the guard's
 * contexts, jobs, Durable Objects through core/jobs.ts, the platform's payments and audit). Modules,
 * pages and Durable Objects cannot import this file at all (a path rule in biome.json, which also
 * refuses `import * as`; ADR 0050): they get their context from the guard or from a builder named by
 * what proves the tenant, in contexts.ts.
 */
const serviceEnvs = new WeakMap<Bindings, ServiceEnv>();
const fullBindings = new WeakMap<ServiceEnv, Bindings>();

/** The bindings without PLATFORM_DB and the slots; one copy per bindings object (per isolate). */
export function serviceEnv(bindings: Bindings): ServiceEnv {
  let narrowed = serviceEnvs.get(bindings);
  if (!narrowed) {
    const copy: Record<string, unknown> = {};
    for (const [key, value] of Object.entries(bindings)) {
      if (key !== "PLATFORM_DB" && !isSlotBinding(key)) {
        // A Durable Object that fails is retried once when retryable, else 503 (core/dependency.ts).
        copy[key] = isNamespace(value) ? guardNamespace(value, key) : value;
      }
    }
    narrowed = Object.freeze(copy) as ServiceEnv;
    serviceEnvs.set(bindings, narrowed);
    fullBindings.set(narrowed, bindings);
  }
  return narrowed;
}

/** Core's way back from a context to the bindings it was made from (never exported past core). */
export function bindingsOf(ctx: PlatformCtx): Bindings {
  const bindings = fullBindings.get(ctx.env);
  if (!bindings) {
    throw new Error("context was not built by core/tenancy");
  }
  return bindings;
}

/**
 * The request each context was built for (ADR 0048): a context made from `c` carries the request's
 * `RequestDb` on to every context derived from it (`withTenant`), so their handles carry the request's
 * idempotency mark, If-Match guard and D1 session. A context of no request (a job's) has none.
 */
const requestOf = new WeakMap<PlatformCtx, RequestDb>();

/** Ties a request's context to its `RequestDb` (contexts.ts `platformCtx`). */
export function rememberRequest(ctx: PlatformCtx, request: RequestDb): void {
  requestOf.set(ctx, request);
}

/**
 * Inside a request for this very community, `db` is the request's D1 session (ADR 0036, sessions.ts);
 * inside any request, `db` carries that request's scope (ADR 0048).
 */
export function withTenant(base: PlatformCtx, tenant: TenantInfo, actor: Actor = base.actor): TenantCtx {
  const request = requestOf.get(base) ?? null;
  const ctx: TenantCtx = { ...base, actor, tenant, db: contextTenantDb(bindingsOf(base), tenant, request) };
  if (request) {
    requestOf.set(ctx, request);
  }
  return ctx;
}

/**
 * A tenant named by its slug, with the same checks as the guard: the general builder under the named
 * ones in contexts.ts, for core and tests. Modules cannot import it (biome.json): they get a context
 * from the guard or from a builder named by what proves the tenant.
 */
export async function tenantCtxFor(
  base: PlatformCtx,
  slug: string,
  options: Omit<ResolveOptions, "allowSuspended"> & { actor?: Actor } = {},
): Promise<TenantCtx> {
  const tenant = await resolveTenant(bindingsOf(base), base.platform, slug, { flag: options.flag });
  return withTenant(base, tenant, options.actor);
}

/**
 * Work the platform does on its own inside a tenant (a poll's Durable Object mirroring ballots it has
 * already accepted). Suspension does not stop it: the ballots were cast while the tenant was active.
 */
export async function systemTenantCtx(
  bindings: Bindings,
  slug: string,
  reason: string,
  options: Pick<ResolveOptions, "flag"> = {},
): Promise<TenantCtx> {
  const base = systemPlatformCtx(bindings, reason);
  const tenant = await resolveTenant(bindings, base.platform, slug, { ...options, allowSuspended: true });
  return withTenant(base, tenant);
}

/** Work the platform does on its own outside any one tenant: a Cron Trigger's run, a queue batch. */
export function systemPlatformCtx(bindings: Bindings, reason: string, requestId?: string): PlatformCtx {
  return {
    actor: { kind: "system", reason },
    platform: platformDb(bindings),
    env: serviceEnv(bindings),
    config: loadConfig(bindings),
    requestId: requestId ?? `system:${reason}`,
    ip: null,
    now: systemNow,
  };
}

export interface EachTenantResult<T> {
  slug: string;
  result?: T;
  error?: string;
}

/**
 * Runs `fn` once in every active tenant (suspended ones are skipped: scheduled work is new work, not
 * bookkeeping of work already accepted), a few at a time. One tenant's failure is reported in its
 * entry and never stops the others.
 */
export async function forEachTenant<T>(
  ctx: PlatformCtx,
  fn: (tenantCtx: TenantCtx) => Promise<T>,
  options: { flag?: FeatureFlag; concurrency?: number } = {},
): Promise<EachTenantResult<T>[]> {
  const rows = await ctx.platform.select().from(tenants).where(eq(tenants.status, "active"));
  const active = rows.map(toTenantInfo).filter((t) => !options.flag || t.flags[options.flag]);
  const results: EachTenantResult<T>[] = [];
  let next = 0;
  const worker = async () => {
    while (next < active.length) {
      const tenant = active[next++] as TenantInfo;
      try {
        results.push({ slug: tenant.slug, result: await fn(withTenant(ctx, tenant)) });
      } catch (err) {
        results.push({ slug: tenant.slug, error: err instanceof Error ? err.message : String(err) });
      }
    }
  };
  await Promise.all(Array.from({ length: Math.min(options.concurrency ?? 4, active.length) }, worker));
  return results;
}
