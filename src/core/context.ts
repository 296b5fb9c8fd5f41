import type { DrizzleD1Database } from "drizzle-orm/d1";
import type { SubscriptionStatus } from "./db/platform-schema";
import type { Bindings, Config, PlatformDb } from "./env";
import type { FeatureFlag } from "./flags";

/**
 * Duties a member holds in a community (ADR 0027). They come on top of residency, never instead of it:
 * a ketua RT who lives in the RT is a resident with the `admin` duty. `satpam` is the gate guard.
 */
export const DUTIES = ["sekretaris", "bendahara", "admin", "satpam"] as const;
export type Duty = (typeof DUTIES)[number];

/**
 * What an access line names: a duty, or `warga` for "lives here". A member's effective roles are their
 * duties plus `warga` when they are a resident (see `effectiveRoles`).
 */
export const TENANT_ROLES = ["warga", "bendahara", "sekretaris", "admin", "satpam"] as const;
export type TenantRole = (typeof TENANT_ROLES)[number];
export type Role = TenantRole | "super_admin";

/**
 * A member is a resident when they have a house in the community, or when they hold no duty at all (a
 * resident who has not yet completed their profile). A hired guard with no house is not one.
 */
export function isResident(duties: readonly Duty[], unitId: string | null): boolean {
  return unitId !== null || duties.length === 0;
}

/** The roles an access line is matched against: the duties, plus `warga` for a resident. */
export function effectiveRoles(duties: readonly Duty[], resident: boolean): TenantRole[] {
  return resident ? ["warga", ...duties] : [...duties];
}

/** Who is acting. Services branch on `kind`; routes never read headers themselves. */
export type Actor =
  | {
      kind: "user";
      userId: string;
      /** Effective roles: `["super_admin"]` for an operator, else duties plus `warga` for a resident. */
      roles: readonly Role[];
      sessionId: string;
      tenantSlug: string | null;
    }
  | { kind: "device"; deviceId: string; tenantSlug: string; adapter: string }
  | { kind: "service"; name: string }
  | { kind: "public"; ip: string | null }
  | { kind: "system"; reason: string };

export type UserActor = Extract<Actor, { kind: "user" }>;

export interface TenantInfo {
  id: string;
  slug: string;
  name: string;
  type: "RT" | "RW";
  parentId: string | null;
  flags: Record<FeatureFlag, boolean>;
  slot: number;
  /**
   * `ditutup` only in the one context core builds for a closed community that still holds its slot
   * (its final archive and its letters' verification records, `closedTenantCtx`); every other way in
   * answers 410 for a closed tenant.
   */
  status: "provisioning" | "active" | "suspended" | "ditutup";
  /** Written by billing; `nonaktif` makes the tenant read-only (402 on writes). */
  subscription: SubscriptionStatus;
}

export type TenantDb = DrizzleD1Database;

/**
 * The bindings a service verb may use: everything but the databases. The platform database comes as
 * `ctx.platform` and a tenant's database only as `ctx.db`, so no verb can name another tenant's slot.
 * (At run time this is a copy of the bindings without those keys: see core/tenancy/contexts.ts.)
 */
export type ServiceEnv = Omit<Bindings, "PLATFORM_DB" | `TENANT_DB_${string}`>;

/** What every verb receives: who acts, the control plane, the non-database bindings, the request and the clock. */
export interface PlatformCtx {
  actor: Actor;
  platform: PlatformDb;
  env: ServiceEnv;
  config: Config;
  requestId: string;
  ip: string | null;
  /** The time, for anything the verb decides or stores ("today in Jakarta", `updatedAt`); faked in tests. */
  now(): Date;
}

/** A verb acting inside one tenant: `db` is that tenant's database and no other. */
export interface TenantCtx extends PlatformCtx {
  tenant: TenantInfo;
  db: TenantDb;
}
