import type { DrizzleD1Database } from "drizzle-orm/d1";
import type { Bindings } from "./env";
import type { FeatureFlag } from "./flags";

export const TENANT_ROLES = ["warga", "bendahara", "sekretaris", "admin"] as const;
export type TenantRole = (typeof TENANT_ROLES)[number];
export type Role = TenantRole | "super_admin";
export const STAFF_ROLES: readonly TenantRole[] = ["bendahara", "sekretaris", "admin"];

/** Who is acting. Services branch on `kind`; routes never read headers themselves. */
export type Actor =
  | { kind: "user"; userId: string; role: Role; sessionId: string; tenantSlug: string | null }
  | { kind: "device"; deviceId: string; tenantSlug: string }
  | { kind: "service"; name: string }
  | { kind: "public"; ip: string | null }
  | { kind: "system"; reason: string };

export interface TenantInfo {
  id: string;
  slug: string;
  name: string;
  type: "RT" | "RW";
  parentId: string | null;
  flags: Record<FeatureFlag, boolean>;
  slot: number;
  status: "provisioning" | "active" | "suspended";
}

export type TenantDb = DrizzleD1Database;

/** Explicit context handed to every service verb: no ambient state. */
export interface TenantCtx {
  tenant: TenantInfo;
  actor: Actor;
  db: TenantDb;
  env: Bindings;
  requestId: string;
  ip: string | null;
}

export interface PlatformCtx {
  actor: Actor;
  env: Bindings;
  requestId: string;
  ip: string | null;
}
