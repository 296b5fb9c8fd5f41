import type { OpenAPIRoute } from "chanfana";
import type { Context, MiddlewareHandler } from "hono";
import { verifyAccessToken } from "../auth/tokens";
import { type Actor, type PlatformCtx, TENANT_ROLES, type TenantCtx, type TenantRole } from "../context";
import { platformDb } from "../db/platform";
import type { HonoEnv } from "../env";
import { Forbidden, Unauthorized } from "../errors";
import type { FeatureFlag } from "../flags";
import { timingSafeEqualText } from "../ids";
import { resolveTenant, tenantDb } from "../tenancy";

/**
 * Who may call a route. Every route declares exactly one of these next to its path, and the table of
 * all of them (app.ts `routeTable`) is what the role-matrix test walks.
 */
export type Access =
  | { scope: "public" }
  | { scope: "service" }
  | { scope: "user" }
  | { scope: "platform" }
  | { scope: "tenant"; roles: readonly TenantRole[]; flag?: FeatureFlag };

export const STAFF: readonly TenantRole[] = ["bendahara", "sekretaris", "admin"];
export const ANY_MEMBER: readonly TenantRole[] = TENANT_ROLES;

export type HttpMethod = "get" | "post" | "put" | "patch" | "delete";

export interface RouteDef {
  method: HttpMethod;
  path: string;
  endpoint: typeof OpenAPIRoute;
  access: Access;
}

function clientIp(c: Context<HonoEnv>): string | null {
  return c.req.header("CF-Connecting-IP") ?? null;
}

function bearer(c: Context<HonoEnv>): string {
  const header = c.req.header("Authorization") ?? "";
  const match = /^Bearer\s+(\S+)$/i.exec(header);
  if (!match?.[1]) {
    throw new Unauthorized("unauthorized", "A bearer access token is required.");
  }
  return match[1];
}

/**
 * Checks in the order ARCHITECTURE.md fixes: credentials, role, tenant (exists, not suspended),
 * feature flag. State checks belong to the service verb that knows the state.
 */
export function guard(access: Access): MiddlewareHandler<HonoEnv> {
  return async (c, next) => {
    if (access.scope === "public") {
      c.set("actor", { kind: "public", ip: clientIp(c) });
      return next();
    }
    if (access.scope === "service") {
      const key = c.req.header("X-Service-Internal-Key") ?? "";
      if (!timingSafeEqualText(key, c.env.INTERNAL_API_KEY)) {
        throw new Unauthorized("invalid_service_key", "A valid internal service key is required.");
      }
      c.set("actor", { kind: "service", name: "internal" });
      return next();
    }
    const claims = await verifyAccessToken(c.get("config"), bearer(c));
    const actor: Actor = {
      kind: "user",
      userId: claims.sub,
      role: claims.role,
      sessionId: claims.sid,
      tenantSlug: claims.tenant,
    };
    c.set("actor", actor);
    if (access.scope === "user") {
      return next();
    }
    if (access.scope === "platform") {
      if (claims.role !== "super_admin") {
        throw new Forbidden("forbidden_role", "This route is for platform operators.");
      }
      return next();
    }
    if (claims.role === "super_admin" || !access.roles.includes(claims.role) || !claims.tenant) {
      throw new Forbidden("forbidden_role", "Your role may not use this route.");
    }
    const tenant = await resolveTenant(c.env, platformDb(c.env), claims.tenant);
    c.set("tenant", tenant);
    if (access.flag && !tenant.flags[access.flag]) {
      throw new Forbidden(
        "feature_disabled",
        `The ${access.flag} module is switched off for this community.`,
      );
    }
    return next();
  };
}

export function tenantCtx(c: Context<HonoEnv>): TenantCtx {
  const tenant = c.get("tenant");
  const actor = c.get("actor");
  if (!tenant || !actor) {
    throw new Error("tenantCtx used on a route without tenant access");
  }
  return {
    tenant,
    actor,
    db: tenantDb(c.env, tenant.slot),
    env: c.env,
    requestId: c.get("requestId"),
    ip: clientIp(c),
  };
}

export function platformCtx(c: Context<HonoEnv>): PlatformCtx {
  const actor = c.get("actor");
  if (!actor) {
    throw new Error("platformCtx used on a route without a guard");
  }
  return { actor, env: c.env, requestId: c.get("requestId"), ip: clientIp(c) };
}

/** The signed-in user behind a request (routes of scope user, tenant or platform). */
export function userActor(c: Context<HonoEnv>): Extract<Actor, { kind: "user" }> {
  const actor = c.get("actor");
  if (actor?.kind !== "user") {
    throw new Unauthorized();
  }
  return actor;
}
