import { and, asc, eq, ne } from "drizzle-orm";
import type { Context } from "hono";
import type { Actor, PlatformCtx, Role, TenantCtx, TenantInfo } from "../context";
import { platformDb, scopedPlatformDb } from "../db/platform";
import { tenants } from "../db/platform-schema";
import { rowByIdOrNotFound } from "../db/rows";
import type { HonoEnv } from "../env";
import { Forbidden, NotFound } from "../errors";
import { systemNow } from "../time";
import { type ResolveOptions, toTenantInfo } from "./registry";
import { requestDb } from "./sessions";
import { rememberRequest, serviceEnv, tenantCtxFor, withTenant } from "./system";

/** The operator route that changes a tenant evicts its own isolate's cached copy (ADR 0007). */
export { forgetTenant, tenantFields, toTenantInfo } from "./registry";

/**
 * Where a request's contexts are made, and the builders a module may call. Verbs never see the raw
 * bindings: they get `env` without the databases, the platform database as `platform`, and (inside a
 * tenant) that tenant's database as `db`. Every tenant context, whatever proves the tenant (a verified
 * token, a device key, a public slug, a verification code, a poll's stored tenant), passes the same
 * `resolveTenant` checks. The system-wide builders (jobs', Durable Objects', tests') are in system.ts,
 * a user's own communities in member.ts and a closed community in closed.ts: files biome.json's path
 * rules keep modules, pages and Durable Objects out of (ADR 0050).
 */
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
  rememberRequest(ctx, request);
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
