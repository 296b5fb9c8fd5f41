import { and, asc, eq, ne } from "drizzle-orm";
import type { Context } from "hono";
import type { Actor, PlatformCtx, Role, ServiceEnv, TenantCtx, TenantInfo } from "../context";
import { platformDb, scopedPlatformDb } from "../db/platform";
import { tenants } from "../db/platform-schema";
import { rowByIdOrNotFound } from "../db/rows";
import { guardNamespace, isNamespace } from "../dependency";
import { type Bindings, type HonoEnv, loadConfig } from "../env";
import { Forbidden, NotFound } from "../errors";
import type { FeatureFlag } from "../flags";
import { systemNow } from "../time";
import { type ResolveOptions, resolveTenant, tenantClosed, tenantFields, toTenantInfo } from "./registry";
import { contextTenantDb, type RequestDb, requestDb } from "./sessions";
import { isSlotBinding } from "./slots";

/** The operator route that changes a tenant evicts its own isolate's cached copy (ADR 0007). */
export { forgetTenant, tenantFields, toTenantInfo } from "./registry";

/**
 * Where contexts are made. Verbs never see the raw bindings: they get `env` without the databases, the
 * platform database as `platform`, and (inside a tenant) that tenant's database as `db`. Every tenant
 * context, whatever proves the tenant (a verified token, a device key, a public slug, a verification
 * code, a poll's stored tenant), passes the same `resolveTenant` checks.
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

function clientIp(c: Context<HonoEnv>): string | null {
  return c.req.header("CF-Connecting-IP") ?? null;
}

/**
 * The context of a request that acts outside any one tenant (sign-in, profile, operator routes).
 * `platform` carries the request's scope when its writes carry something (an Idempotency-Key, an
 * If-Match on a platform table); otherwise it is the isolate's one instance (core/db/platform.ts).
 */
export function platformCtx(c: Context<HonoEnv>): PlatformCtx {
  const actor = c.get("actor");
  if (!actor) {
    throw new Error("platformCtx used on a route without a guard");
  }
  const request = requestDb(c);
  const ctx: PlatformCtx = {
    actor,
    platform: request.scope.carries ? scopedPlatformDb(c.env, request.scope) : platformDb(c.env),
    env: serviceEnv(c.env),
    config: c.get("config"),
    requestId: c.get("requestId"),
    ip: clientIp(c),
    now: systemNow,
  };
  requestOf.set(ctx, request);
  return ctx;
}

/**
 * Inside a request for this very community, `db` is the request's D1 session (ADR 0036, sessions.ts);
 * inside any request, `db` carries that request's scope (ADR 0048).
 */
function withTenant(base: PlatformCtx, tenant: TenantInfo, actor: Actor = base.actor): TenantCtx {
  const request = requestOf.get(base) ?? null;
  const ctx: TenantCtx = { ...base, actor, tenant, db: contextTenantDb(bindingsOf(base), tenant, request) };
  if (request) {
    requestOf.set(ctx, request);
  }
  return ctx;
}

/** The context of a tenant route: the guard has resolved the tenant from the token or device key. */
export function tenantCtx(c: Context<HonoEnv>): TenantCtx {
  const tenant = c.get("tenant");
  if (!tenant) {
    throw new Error("tenantCtx used on a route without tenant access");
  }
  return withTenant(platformCtx(c), tenant);
}

/** An operator route's tenant `:id`: its platform row, or 404 `tenant_not_found`. */
export async function tenantRowById(ctx: PlatformCtx, id: string) {
  return rowByIdOrNotFound(ctx.platform, tenants, id, "Tenant", "tenant_not_found");
}

/**
 * A tenant named by its slug, with the same checks as the guard: the general builder under the named
 * ones below, for core and tests. Modules cannot import it (biome.json): they get a context from the
 * guard or from a builder named by what proves the tenant.
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
 * A tenant a public caller names by slug inside something it presents: the verification code printed on
 * a letter (`<slug>.<code>`). Public form routes need none: their guard line (`public-tenant`) reads
 * the slug from the path. Same checks as the guard; the actor stays `public`.
 */
export async function publicTenantCtx(
  base: PlatformCtx,
  slug: string,
  options: Pick<ResolveOptions, "flag"> = {},
): Promise<TenantCtx> {
  if (base.actor.kind !== "public") {
    throw new Error("publicTenantCtx is for public callers");
  }
  return tenantCtxFor(base, slug, options);
}

/**
 * The community a signed-in user's verified access token names (its `tenant` claim), on a `user` route
 * (the profile, files whose access the verb decides). Same checks as the guard; the actor is unchanged.
 * 403 `forbidden_role` for a token without a community (an operator's).
 */
export async function tokenTenantCtx(base: PlatformCtx): Promise<TenantCtx> {
  if (base.actor.kind !== "user") {
    throw new Error("tokenTenantCtx is for signed-in users");
  }
  if (!base.actor.tenantSlug) {
    throw new Forbidden("forbidden_role", "This sign-in is not in a community.");
  }
  return tenantCtxFor(base, base.actor.tenantSlug);
}

/**
 * A community the signed-in user belongs to, by a membership identity read for them: the one way a
 * user's own communities are walked (identity's `ownCommunityCtx`; biome.json keeps this builder to
 * identity). The actor is the user with that membership's roles. Same checks as the guard.
 */
export async function memberTenantCtx(
  base: PlatformCtx,
  membership: { userId: string; tenantSlug: string; roles: readonly Role[] },
): Promise<TenantCtx> {
  if (base.actor.kind !== "user" || base.actor.userId !== membership.userId) {
    throw new Error("memberTenantCtx is for the signed-in user's own memberships");
  }
  const actor: Actor = { ...base.actor, roles: membership.roles, tenantSlug: membership.tenantSlug };
  return tenantCtxFor(base, membership.tenantSlug, { actor });
}

/**
 * A tenant named by its platform row, for work on the tenant as a whole: an operator's route on
 * `/api/platform/tenants/:id` (import, erasure), the platform's own archive runs, or a context already
 * inside that very tenant (its admin's request for its own archive). Same checks as the guard, so a
 * suspended tenant is 403. The actor is unchanged.
 */
export async function operatorTenantCtx(
  base: PlatformCtx | TenantCtx,
  tenant: { id: string; slug: string },
): Promise<TenantCtx> {
  const { actor } = base;
  const allowed =
    actor.kind === "system" ||
    (actor.kind === "user" && actor.roles.includes("super_admin")) ||
    ("tenant" in base && base.tenant.id === tenant.id);
  if (!allowed) {
    throw new Error("operatorTenantCtx is for operators, the platform itself, or the tenant's own context");
  }
  const ctx = await tenantCtxFor(base, tenant.slug);
  if (ctx.tenant.id !== tenant.id) {
    throw new NotFound("Tenant", "tenant_not_found");
  }
  return ctx;
}

/**
 * A closed community (status `ditutup`) that still holds its slot: its database, for the two readers
 * that need it after the close, both before the slot is emptied (`tenants/closing.ts`): the final
 * archive (ADR 0026) and the copy of its letters' verification records (`surat/kept.ts`, issue 42). The actor is `system`. The row is read here by id, so no caller names a slot;
 * a tenant that is not closed is 404, and one whose slot went back to the pool is 410.
 */
export async function closedTenantCtx(base: PlatformCtx, id: string): Promise<TenantCtx> {
  // Only the platform closes a community (the operator's DELETE /api/platform/tenants/:id, then the
  // close's own steps) and builds its archives (an operator's request, the hourly job): a context of
  // anyone else, a tenant's own admin or a service included, is refused before anything is read
  // (issue 48; biome.json also keeps the import to those two callers).
  const { actor } = base;
  if (!(actor.kind === "system" || (actor.kind === "user" && actor.roles.includes("super_admin")))) {
    throw new Forbidden();
  }
  const row = await tenantRowById(base, id);
  if (row.status !== "ditutup") {
    throw new NotFound("Tenant", "tenant_not_found");
  }
  if (row.slot === null) {
    throw tenantClosed();
  }
  const tenant: TenantInfo = { ...tenantFields(row), slot: row.slot, status: "ditutup" };
  return withTenant(base, tenant, { kind: "system", reason: `closing:${row.slug}` });
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

export interface ChildTenant {
  slug: string;
  name: string;
  linkedAt: string;
  /** A context in the child with the `system` actor (no role there), or null if the child is not active. */
  ctx: TenantCtx | null;
  status: TenantInfo["status"];
}

/**
 * The RTs linked to the caller's RW, each with a context on its own database: the one cross-tenant read
 * a tenant route may make (architecture: "the RW hierarchy summary", and the RW's acknowledgement of its
 * RTs' letters, ADR 0030). Only the admin of an RW tenant gets them, or the duties a caller names (the
 * letters' queue also opens to the RW's sekretaris). The child contexts act as `system`, so a child's
 * verb never mistakes the RW head for one of its own staff; what the caller does with them must be
 * counts, or the letters the RT itself sends to its RW, never other personal data of a child.
 */
export async function childTenants(
  ctx: TenantCtx,
  options: { duties?: readonly Role[] } = {},
): Promise<ChildTenant[]> {
  if (ctx.tenant.type !== "RW") {
    throw new Forbidden("not_rw_tenant", "Only an RW tenant has linked RTs.");
  }
  const duties = options.duties ?? ["admin"];
  const caller = ctx.actor;
  if (caller.kind !== "user" || !duties.some((duty) => caller.roles.includes(duty))) {
    throw new Forbidden("forbidden_role", "Only the RW head reads the linked RTs.");
  }
  const rows = await ctx.platform
    .select()
    .from(tenants)
    .where(and(eq(tenants.parentId, ctx.tenant.id), eq(tenants.type, "RT"), ne(tenants.status, "ditutup")))
    .orderBy(asc(tenants.slug));
  const actor: Actor = { kind: "system", reason: `rw-hierarchy:${ctx.tenant.slug}` };
  return rows.map((row) => {
    const info = toTenantInfo(row);
    return {
      slug: row.slug,
      name: row.name,
      linkedAt: row.linkedAt ?? row.createdAt,
      status: info.status,
      ctx: info.status === "active" ? withTenant(ctx, info, actor) : null,
    };
  });
}
