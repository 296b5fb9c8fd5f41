import { drizzle } from "drizzle-orm/d1";
import type { TenantDb } from "../context";
import { type DbScope, d1Handle, withStatementFacts } from "../db/handles";
import { applyMigrations } from "../db/migrate";
import { TENANT_MIGRATIONS } from "../db/tenant-migrations.generated";
import type { Bindings } from "../env";
import { Unavailable } from "../errors";

/**
 * The tenant database slots (wrangler.toml `TENANT_DB_NN`). Only core may name a slot: a module gets
 * its tenant's database as `ctx.db` (Biome's noRestrictedImports keeps this file out of modules).
 */
const SLOT_RE = /^TENANT_DB_(\d+)$/;

export function slotBindingName(slot: number): string {
  return `TENANT_DB_${String(slot).padStart(2, "0")}`;
}

/** How many tenant database slots this deployment declares. */
export function slotCount(env: Bindings): number {
  let max = 0;
  for (const key of Object.keys(env)) {
    const match = SLOT_RE.exec(key);
    if (match) {
      max = Math.max(max, Number(match[1]));
    }
  }
  return max;
}

export function isSlotBinding(key: string): boolean {
  return SLOT_RE.test(key);
}

export function slotDatabase(env: Bindings, slot: number): D1Database {
  const binding = (env as unknown as Record<string, D1Database | undefined>)[slotBindingName(slot)];
  if (!binding) {
    throw new Unavailable("tenant_db_unavailable", "The tenant's database is not bound to this deployment.");
  }
  return binding;
}

/**
 * One drizzle instance per slot binding and isolate, as for the platform database (core/db/platform.ts):
 * core's own handle for work outside any request's context (jobs, tests), carrying no request's scope.
 */
const instances = new WeakMap<D1Database, TenantDb>();
/** Each instance's binding, for core's one raw path (core/db/raw.ts `rawD1`). */
const clients = new WeakMap<TenantDb, D1Database>();

export function tenantDb(env: Bindings, slot: number): TenantDb {
  const binding = slotDatabase(env, slot);
  let db = instances.get(binding);
  if (!db) {
    const handle = d1Handle(binding, null);
    db = withStatementFacts(drizzle(handle));
    instances.set(binding, db);
    clients.set(db, handle);
  }
  return db;
}

/**
 * A drizzle instance over one D1 session of a slot's database (core/tenancy/sessions.ts): reads go to
 * the nearest replica at least as new as `constraintOrBookmark`, writes to the primary. One per request,
 * never cached: the session carries that request's bookmark, and the handle that request's `scope`
 * (core/db/handles.ts: what its writes carry, who is told of a row read by id).
 */
export function tenantSessionDb(
  env: Bindings,
  slot: number,
  constraintOrBookmark: string,
  guard: Guard = (raw) => raw,
  scope: DbScope | null = null,
): { db: TenantDb; session: D1DatabaseSession } {
  const binding = slotDatabase(env, slot);
  const session = binding.withSession(constraintOrBookmark);
  const handle = d1Handle(guard(session as unknown as D1Database), scope, binding);
  const db = withStatementFacts(drizzle(handle));
  clients.set(db, handle);
  return { db, session };
}

/** What a tenant context puts between its handle and the database: the owner check (owner.ts). */
export type Guard = (raw: D1Database) => D1Database;

/**
 * A slot's primary behind `guard`, one per call (a tenant context's own handle, owner.ts): the check
 * belongs to the context, so unlike `tenantDb` it is not kept per isolate; so does `scope`, the
 * request's part (core/db/handles.ts), when the context was built for one.
 */
export function guardedTenantDb(
  env: Bindings,
  slot: number,
  guard: Guard,
  scope: DbScope | null = null,
): TenantDb {
  const binding = slotDatabase(env, slot);
  const handle = d1Handle(guard(binding), scope, binding);
  const db = withStatementFacts(drizzle(handle));
  clients.set(db, handle);
  return db;
}

/** The D1 binding under a tenant database built here. */
export function tenantClient(db: TenantDb): D1Database {
  const client = clients.get(db);
  if (!client) {
    throw new Error("tenant database was not built by core/tenancy");
  }
  return client;
}

export async function migrateSlot(env: Bindings, slot: number): Promise<string[]> {
  return applyMigrations(slotDatabase(env, slot), TENANT_MIGRATIONS);
}

/**
 * Migrates the slot a tenant has just claimed and writes that tenant as its owner (owner.ts): the
 * platform row is the authority, so an owner left by anyone else is replaced. Idempotent, like the
 * migrations: a create that failed half-way is finished by the tenant's first request (resolveTenant).
 */
export async function claimSlotDatabase(env: Bindings, slot: number, tenantId: string): Promise<void> {
  await migrateSlot(env, slot);
  const db = slotDatabase(env, slot);
  await db
    .prepare(
      "INSERT INTO slot_owner (id, tenant_id) VALUES (1, ?1) ON CONFLICT (id) DO UPDATE SET tenant_id = excluded.tenant_id",
    )
    .bind(tenantId)
    .run();
}
