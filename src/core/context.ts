import type { DrizzleD1Database } from "drizzle-orm/d1";
import type { Actor } from "./actor";
import type { Config, PlatformDb, ServiceEnv } from "./env";
import type { TenantInfo } from "./tenant-info";

/**
 * Who acts and in which community are declared in core/actor.ts and core/tenant-info.ts, which import
 * nothing of the context (so core/env.ts and the platform schema can name them without an import
 * cycle); they are re-exported here, where every verb has always found them.
 */
export {
  type Actor,
  DUTIES,
  type Duty,
  effectiveRoles,
  isResident,
  type Role,
  TENANT_ROLES,
  type TenantRole,
  type UserActor,
} from "./actor";
export type { ServiceEnv } from "./env";
export type { TenantInfo } from "./tenant-info";

export type TenantDb = DrizzleD1Database;

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
