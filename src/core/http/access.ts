import type { OpenAPIRoute } from "chanfana";
import { and, eq, isNull } from "drizzle-orm";
import type { Context, MiddlewareHandler } from "hono";
import { liveStanding, membershipForgets, type Standing } from "../auth/liveness";
import { type AccessClaims, signAccessToken, verifyAccessToken } from "../auth/tokens";
import {
  type Actor,
  effectiveRoles,
  type PlatformCtx,
  type Role,
  type TenantCtx,
  type TenantRole,
  type UserActor,
} from "../context";
import { platformDb } from "../db/platform";
import { gateDevices, tenants } from "../db/platform-schema";
import type { HonoEnv, RouteEnv } from "../env";
import { Forbidden, PaymentRequired, Unauthorized } from "../errors";
import type { FeatureFlag } from "../flags";
import { sha256Hex, timingSafeEqualText } from "../ids";
import { platformCtx as platformCtxOfBindings, tenantCtx as tenantCtxOfBindings } from "../tenancy/contexts";
import { resolveTenant } from "../tenancy/registry";
import type { SecretParts } from "./secret";

/**
 * Core's one door from a route handler's `c` (typed `RouteEnv`: `c.env` is ServiceEnv) to the bindings
 * behind it: the context builders read the databases there; the handler gets only the context.
 */
function withBindings(c: Context<RouteEnv>): Context<HonoEnv> {
  return c as unknown as Context<HonoEnv>;
}

/** The platform context of a request (core/tenancy/contexts.ts `platformCtx`). */
export function platformCtx(c: Context<RouteEnv>): PlatformCtx {
  return platformCtxOfBindings(withBindings(c));
}

/** The tenant context of a request the guard let through (core/tenancy/contexts.ts `tenantCtx`). */
export function tenantCtx(c: Context<RouteEnv>): TenantCtx {
  return tenantCtxOfBindings(withBindings(c));
}

/**
 * The role vocabulary: the groups the spec names, used both in route access lines and in services'
 * own checks (so "staff" means the same thing in a route table and in a verb). `warga` stands for
 * residency: a member who lives in the community matches it whatever duties they also hold.
 */
export const ROLES = {
  /** Residents and officers: everyone in the community but a guard who does not live there. */
  MEMBER: ["warga", "bendahara", "sekretaris", "admin"],
  /** The community's officers: treasurer, secretary, head. */
  STAFF: ["bendahara", "sekretaris", "admin"],
  /** The gate: officers and the guard on duty (today's guests, check-in and check-out). */
  GATE: ["bendahara", "sekretaris", "admin", "satpam"],
  /** Registry, letters, guests, polls, content: the secretary and the head. */
  SECRETARIAT: ["sekretaris", "admin"],
  /** Money: the treasurer and the head. */
  FINANCE: ["bendahara", "admin"],
  ADMIN: ["admin"],
  RESIDENT: ["warga"],
} as const satisfies Record<string, readonly TenantRole[]>;

/**
 * Who may call a route. Every route declares exactly one of these next to its path; the role-matrix
 * test checks the table of all of them (app.ts `routeTable`) against an expected table of its own.
 */
export type Access =
  | { scope: "public" }
  /** Anyone, inside the community the path's `:slug` names (a public form, a published report). */
  | { scope: "public-tenant"; flag?: FeatureFlag }
  | { scope: "service" }
  | { scope: "user" }
  | { scope: "platform" }
  | { scope: "device"; flag: FeatureFlag }
  | { scope: "tenant"; roles: readonly TenantRole[]; flag?: FeatureFlag };

/** A tenant route's access line: `tenantAccess(ROLES.SECRETARIAT, "surat")`. */
export function tenantAccess(roles: readonly TenantRole[], flag?: FeatureFlag) {
  return { scope: "tenant", roles, ...(flag ? { flag } : {}) } as {
    scope: "tenant";
    roles: readonly TenantRole[];
    flag?: FeatureFlag;
  };
}

export type HttpMethod = "get" | "post" | "put" | "patch" | "delete";

export interface RouteDef {
  method: HttpMethod;
  path: string;
  endpoint: typeof OpenAPIRoute;
  access: Access;
  /** URL parts that are credentials: redacted from logs, answered with `Cache-Control: no-store`. */
  secret?: SecretParts;
}

/** Whether the actor is a signed-in user holding one of `roles` (devices and services never are). */
export function hasRole(ctx: { actor: Actor }, roles: readonly Role[]): boolean {
  const { actor } = ctx;
  return actor.kind === "user" && roles.some((role) => actor.roles.includes(role));
}

/** The signed-in user behind a verb, or 401: the one actor → user helper. */
export function requireUser(ctx: Pick<PlatformCtx, "actor">): UserActor {
  if (ctx.actor.kind !== "user") {
    throw new Unauthorized();
  }
  return ctx.actor;
}

function clientIp(c: Context<HonoEnv>): string | null {
  return c.req.header("CF-Connecting-IP") ?? null;
}

function bearer(c: Context<HonoEnv>, code: "unauthorized" | "missing_device_key"): string {
  const header = c.req.header("Authorization") ?? "";
  const match = /^Bearer\s+(\S+)$/i.exec(header);
  if (!match?.[1]) {
    throw code === "unauthorized"
      ? new Unauthorized("unauthorized", "A bearer access token is required.")
      : new Unauthorized("missing_device_key", "The device API key goes in Authorization: Bearer <key>.");
  }
  return match[1];
}

interface VerifiedDevice {
  id: string;
  adapter: string;
  slug: string;
  expires: number;
}

/**
 * Device key → verified, active device, cached per isolate for 30 s like tenants (ADR 0007, ADR 0015):
 * a busy gate's steady-state webhook then reads nothing from the platform database, and hashes nothing,
 * before its one tenant round trip (the key is held in memory as the verified access tokens are,
 * core/auth/tokens.ts). Only active devices are cached (an unknown, deleted or deactivated key is
 * hashed and read every time, so no caller can fill the cache with junk). The device routes evict their
 * own isolate's entry at once; other isolates see a deactivation or deletion within the TTL.
 */
const DEVICE_TTL_MS = 30_000;
const DEVICE_CACHE_MAX = 1_000;
const deviceCache = new Map<string, VerifiedDevice>();

/** Evicts a device from this isolate's cache (called when it is deactivated, deleted or re-keyed). */
export function forgetDevice(deviceId: string): void {
  for (const [key, device] of deviceCache) {
    if (device.id === deviceId) {
      deviceCache.delete(key);
    }
  }
}

async function verifiedDevice(c: Context<HonoEnv>, key: string): Promise<VerifiedDevice> {
  const hit = deviceCache.get(key);
  if (hit && hit.expires > Date.now()) {
    return hit;
  }
  deviceCache.delete(key);
  const keyHash = await sha256Hex(key);
  const found = await platformDb(c.env)
    .select({
      id: gateDevices.id,
      active: gateDevices.active,
      adapter: gateDevices.adapter,
      slug: tenants.slug,
    })
    .from(gateDevices)
    .innerJoin(tenants, eq(tenants.id, gateDevices.tenantId))
    .where(and(eq(gateDevices.keyHash, keyHash), isNull(gateDevices.deletedAt)))
    .get();
  if (!found) {
    throw new Unauthorized("invalid_device_key", "This device key is not valid.");
  }
  if (!found.active) {
    throw new Forbidden("device_inactive", "This device has been deactivated.");
  }
  if (deviceCache.size >= DEVICE_CACHE_MAX) {
    // Oldest first (a Map iterates in insertion order).
    const oldest = deviceCache.keys().next().value;
    if (oldest !== undefined) {
      deviceCache.delete(oldest);
    }
  }
  const device = {
    id: found.id,
    adapter: found.adapter,
    slug: found.slug,
    expires: Date.now() + DEVICE_TTL_MS,
  };
  deviceCache.set(key, device);
  return device;
}

/**
 * A gate device proves itself with its key (ADR 0008): the key's hash leads to the device and its
 * tenant. Unknown and deleted keys are 401; a deactivated device is 403. Both the device and its
 * tenant come from per-isolate caches in the steady state.
 */
async function authenticateDevice(c: Context<HonoEnv>, flag: FeatureFlag): Promise<void> {
  const key = bearer(c, "missing_device_key");
  const device = await verifiedDevice(c, key);
  // The adapter rides along so the webhook needs no second read of the device row.
  c.set("actor", { kind: "device", deviceId: device.id, tenantSlug: device.slug, adapter: device.adapter });
  c.set("tenant", await resolveTenant(c.env, platformDb(c.env), device.slug, { flag }));
}

export interface GuardOptions {
  /**
   * Ask whether the token's sign-in is still live (core/auth/liveness.ts): `always` for identity's
   * routes, `staff-writes` (the default) for writes by bendahara, sekretaris and admin.
   */
  liveSession?: "always" | "staff-writes";
  /**
   * The module's writes stay open when the tenant's subscription is `nonaktif` (billing: paying is
   * how a community gets out of that state). Every other tenant or device write answers 402.
   */
  writesWhenInactive?: boolean;
}

const SAFE_METHODS = new Set(["GET", "HEAD", "OPTIONS"]);

/**
 * Every request inside a tenant asks whether its sign-in is live, so a member removed from the
 * community (whose sessions there are revoked) is refused on their next request, not when the token
 * expires; the answer comes from the isolate's list of ended sign-ins (core/auth/liveness.ts), brought
 * up to date by one platform read every few seconds whoever asks.
 * Operator routes ask too, reads included: they reach every community's data (a tenant's archive, its
 * audit log), so a signed-out operator token must not read on for 15 minutes (issue 31, L3).
 */
function needsLiveSession(
  c: Context<HonoEnv>,
  access: Access,
  roles: readonly Role[],
  options: GuardOptions,
) {
  if (options.liveSession === "always" || access.scope === "tenant" || access.scope === "platform") {
    return true;
  }
  return !SAFE_METHODS.has(c.req.method) && ROLES.STAFF.some((role) => roles.includes(role));
}

/**
 * A community whose subscription lapsed past its grace period stays readable, but its writes answer
 * 402 until it pays. Sign-in and profile are `user`/`public` routes and never reach this; billing
 * opts out through `writesWhenInactive`.
 */
function requireWritable(c: Context<HonoEnv>, options: GuardOptions): void {
  const tenant = c.get("tenant");
  if (tenant?.subscription === "nonaktif" && !SAFE_METHODS.has(c.req.method) && !options.writesWhenInactive) {
    throw new PaymentRequired(
      "subscription_inactive",
      "This community's subscription is inactive: data can be read, but changes need a paid invoice.",
    );
  }
}

/**
 * Checks in the order the architecture fixes: credentials, role, tenant (exists, not suspended),
 * feature flag, then (for writes) a subscription that is not `nonaktif`. State checks belong to the service verb that knows the state.
 */
export function guard(access: Access, options: GuardOptions = {}): MiddlewareHandler<HonoEnv> {
  return async (c, next) => {
    if (access.scope === "public") {
      c.set("actor", { kind: "public", ip: clientIp(c) });
      return next();
    }
    if (access.scope === "public-tenant") {
      // The slug in the path proves nothing but which community is asked: the tenant checks still apply.
      const slug = c.req.param("slug");
      if (slug === undefined) {
        throw new Error("a public-tenant route needs a :slug in its path");
      }
      c.set("actor", { kind: "public", ip: clientIp(c) });
      c.set("tenant", await resolveTenant(c.env, platformDb(c.env), slug, { flag: access.flag }));
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
    if (access.scope === "device") {
      await authenticateDevice(c, access.flag);
      requireWritable(c, options);
      return next();
    }
    const claims = await verifyAccessToken(c.get("config"), bearer(c, "unauthorized"));
    const claimed = standingOf(claims);
    const live = needsLiveSession(c, access, claimed.roles, options);
    // The community before the sign-in's liveness: closing a community revokes every session in it, and
    // its members' old tokens should hear 410 tenant_closed (cached per isolate, so it costs no read),
    // not a "sign in again" that sign-in would then refuse.
    // Both answers are cached per isolate; when they are not, the two reads go out together. The
    // standing (the token's claims, or its membership as it now stands: ADR 0043) comes with liveness.
    const [standing, tenant] = await Promise.allSettled([
      live ? liveStanding(platformDb(c.env), claims) : claimed,
      access.scope === "tenant" && claims.tenant
        ? resolveTenant(c.env, platformDb(c.env), claims.tenant, { flag: access.flag })
        : null,
    ]);
    if (standing.status === "rejected") {
      // Credentials first (an ended sign-in or membership is 401 whatever the route), except that a
      // closed community says so (410) rather than "sign in again".
      throw tenant.status === "rejected" ? tenant.reason : standing.reason;
    }
    const current = standing.value;
    const roles = rolesOf(claims, current);
    const actor: Actor = {
      kind: "user",
      userId: claims.sub,
      roles,
      sessionId: claims.sid,
      tenantSlug: claims.tenant,
      // The house only as the feed vouches for it (a request that skips liveness keeps the read).
      ...(live && current.unitId !== undefined ? { unitId: current.unitId } : {}),
    };
    c.set("actor", actor);
    if (access.scope === "platform" && claims.tenant !== null) {
      throw new Forbidden("forbidden_role", "This route is for platform operators.");
    }
    if (access.scope === "tenant" && (!claims.tenant || !access.roles.some((role) => roles.includes(role)))) {
      throw new Forbidden("forbidden_role", "Your role may not use this route.");
    }
    if (tenant.status === "rejected") {
      throw tenant.reason;
    }
    if (tenant.value) {
      c.set("tenant", tenant.value);
      requireWritable(c, options);
    }
    const forgets = membershipForgets();
    await next();
    await restateToken(c, claims, current, live && forgets !== membershipForgets());
  };
}

/** What the token itself claims, as a standing. */
function standingOf(claims: AccessClaims): Standing {
  return { roles: claims.roles.filter((r) => r !== "super_admin"), resident: claims.resident, newer: null };
}

function rolesOf(claims: AccessClaims, standing: Standing): readonly Role[] {
  return claims.tenant === null ? ["super_admin"] : effectiveRoles(standing.roles, standing.resident);
}

/** The header that carries an access token restating the caller's current standing (ADR 0043). */
export const FRESH_TOKEN_HEADER = "X-Warga-Access-Token";

/**
 * Hands the caller a token with their standing as it now is, when the one they sent says otherwise: a
 * change made by others (the feed had a newer version of their membership), or one this very request
 * made (a write here asked the feed to be read again, `forgetMemberships`, and it now holds a newer
 * version of the caller's membership). It names the same sign-in and ends when the presented token
 * ends, so it extends nothing; only a refresh does. Answers that carry one are never stored.
 */
async function restateToken(
  c: Context<HonoEnv>,
  claims: AccessClaims,
  standing: Standing,
  changedHere: boolean,
): Promise<void> {
  let current = standing;
  if (changedHere) {
    try {
      current = await liveStanding(platformDb(c.env), claims);
    } catch {
      // The sign-in or the membership ended with this request: there is no standing to restate.
      return;
    }
  }
  if (current.newer === null || claims.mid === undefined) {
    return;
  }
  const { exp } = decodedExpiry(c);
  if (exp === null) {
    return;
  }
  const token = await signAccessToken(
    c.get("config"),
    {
      ...claims,
      roles: current.roles,
      resident: current.resident,
      mv: current.newer,
      ...(current.unitId === undefined ? {} : { unit: current.unitId }),
    },
    exp,
  );
  c.header(FRESH_TOKEN_HEADER, token);
  c.header("Cache-Control", "no-store");
}

/** The presented token's `exp` (already verified by the guard). */
function decodedExpiry(c: Context<HonoEnv>): { exp: number | null } {
  const token = /^Bearer\s+(\S+)$/i.exec(c.req.header("Authorization") ?? "")?.[1];
  try {
    const payload = JSON.parse(atob((token?.split(".")[1] ?? "").replace(/-/g, "+").replace(/_/g, "/")));
    return { exp: typeof payload.exp === "number" ? payload.exp : null };
  } catch {
    return { exp: null };
  }
}
