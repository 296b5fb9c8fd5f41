import { and, desc, eq, gte, inArray, isNull, lt, type SQL } from "drizzle-orm";
import type { BatchItem } from "drizzle-orm/batch";
import type { SQLiteColumn } from "drizzle-orm/sqlite-core";
import type { Actor, PlatformCtx, TenantCtx, TenantInfo } from "./context";
import { auditLog, tenants } from "./db/platform-schema";
import { rawD1 } from "./db/raw";
import { rowById } from "./db/rows";
import { tenantAuditLog } from "./db/tenant-schema";
import { newId } from "./ids";
import { resolveTenant, toTenantInfo } from "./tenancy/registry";
import { tenantDb } from "./tenancy/slots";
import { bindingsOf } from "./tenancy/system";
import { jakartaDayRange } from "./time";

/**
 * The audit trail (ADR 0006). A change and its record are written in one D1 batch, in the database
 * the change lives in: `audit(ctx, …)` beside a tenant's own data, `platformAudit(ctx, …)` beside a
 * control-plane change (tenants, memberships, devices, tickets). D1 has no transaction across two
 * databases, so a record kept elsewhere could be lost (or a change reported that rolled back).
 */
export interface AuditEntry {
  action: string;
  targetType: string;
  targetId?: string | null;
  detail?: Record<string, unknown>;
}

function actorFields(actor: Actor): { actorId: string | null; actorRole: string | null } {
  switch (actor.kind) {
    case "user":
      return { actorId: actor.userId, actorRole: actor.roles.join(",") };
    case "device":
      return { actorId: actor.deviceId, actorRole: "device" };
    case "service":
      return { actorId: actor.name, actorRole: "service" };
    default:
      return { actorId: null, actorRole: actor.kind };
  }
}

function row(ctx: PlatformCtx, entry: AuditEntry) {
  return {
    id: newId(),
    ...actorFields(ctx.actor),
    action: entry.action,
    targetType: entry.targetType,
    targetId: entry.targetId ?? null,
    ip: ctx.ip,
    requestId: ctx.requestId,
    detail: entry.detail ?? null,
  };
}

/** The record of a change to the tenant's own data: put it in the same `ctx.db.batch` as the change. */
export function audit(ctx: TenantCtx, entry: AuditEntry): BatchItem<"sqlite"> {
  return ctx.db.insert(tenantAuditLog).values(row(ctx, entry));
}

/** The same record as a prepared statement, for a batch of raw statements on `rawD1(ctx)` (core/db/raw.ts). */
export function rawAudit(ctx: TenantCtx, entry: AuditEntry): D1PreparedStatement {
  const { sql, params } = ctx.db.insert(tenantAuditLog).values(row(ctx, entry)).toSQL();
  return rawD1(ctx)
    .prepare(sql)
    .bind(...params);
}

/**
 * The record of a control-plane change: put it in the same `ctx.platform.batch`. `tenantId` is the
 * community the change concerns (null for platform-wide changes); a tenant context supplies its own.
 */
export function platformAudit(
  ctx: PlatformCtx | TenantCtx,
  entry: AuditEntry & { tenantId?: string | null },
): BatchItem<"sqlite"> {
  const tenantId = entry.tenantId !== undefined ? entry.tenantId : "tenant" in ctx ? ctx.tenant.id : null;
  return ctx.platform.insert(auditLog).values({ ...row(ctx, entry), tenantId });
}

export interface AuditFilter {
  from?: string;
  to?: string;
  actor?: string;
  action?: string;
  cursor?: string;
  limit: number;
}

export interface AuditRecord {
  id: string;
  tenantId: string | null;
  actorId: string | null;
  actorRole: string | null;
  action: string;
  targetType: string;
  targetId: string | null;
  ip: string | null;
  requestId: string | null;
  detail: Record<string, unknown> | null;
  createdAt: string;
}

function conditions(
  filter: AuditFilter,
  cols: { id: SQLiteColumn; createdAt: SQLiteColumn; actorId: SQLiteColumn; action: SQLiteColumn },
): SQL[] {
  const range = jakartaDayRange(filter.from, filter.to);
  return [
    ...(range.gte ? [gte(cols.createdAt, range.gte)] : []),
    ...(range.lt ? [lt(cols.createdAt, range.lt)] : []),
    ...(filter.actor ? [eq(cols.actorId, filter.actor)] : []),
    ...(filter.action ? [eq(cols.action, filter.action)] : []),
    ...(filter.cursor ? [lt(cols.id, filter.cursor)] : []),
  ];
}

async function tenantRows(ctx: PlatformCtx, tenant: TenantInfo, filter: AuditFilter): Promise<AuditRecord[]> {
  const db = tenantDb(bindingsOf(ctx), tenant.slot);
  const rows = await db
    .select()
    .from(tenantAuditLog)
    .where(and(...conditions(filter, tenantAuditLog)))
    .orderBy(desc(tenantAuditLog.id))
    .limit(filter.limit + 1);
  return rows.map((r) => ({ ...r, tenantId: tenant.id }));
}

async function platformRows(ctx: PlatformCtx, scope: SQL | undefined, filter: AuditFilter) {
  return ctx.platform
    .select()
    .from(auditLog)
    .where(and(scope, ...conditions(filter, auditLog)))
    .orderBy(desc(auditLog.id))
    .limit(filter.limit + 1);
}

/** Ids are ULIDs made at insert: merging newest-first by id is merging by time, and the cursor is an id. */
function merge(sources: AuditRecord[][], limit: number) {
  const all = sources.flat().sort((a, b) => (a.id < b.id ? 1 : a.id > b.id ? -1 : 0));
  const items = all.slice(0, limit);
  return { items, nextCursor: all.length > limit ? (items.at(-1)?.id ?? null) : null };
}

/** One community's trail: its own database's records and the control-plane records about it. */
export async function readTenantAudit(ctx: TenantCtx, filter: AuditFilter) {
  return merge(
    await Promise.all([
      tenantRows(ctx, ctx.tenant, filter),
      platformRows(ctx, eq(auditLog.tenantId, ctx.tenant.id), filter),
    ]),
    filter.limit,
  );
}

/**
 * The operator's trail. `tenant` narrows to one community (slug or id) or to `platform` (changes that
 * concern no community); without it every community's database is read, newest first across all.
 */
export async function readPlatformAudit(ctx: PlatformCtx, filter: AuditFilter & { tenant?: string }) {
  if (filter.tenant === "platform") {
    return merge([await platformRows(ctx, isNull(auditLog.tenantId), filter)], filter.limit);
  }
  if (filter.tenant) {
    const byId = await rowById(ctx.platform, tenants, filter.tenant);
    const slug = byId?.slug ?? filter.tenant;
    const row = byId ?? (await ctx.platform.select().from(tenants).where(eq(tenants.slug, slug)).get());
    if (row?.status === "ditutup") {
      // A closed community's own log went with its database (its final archive holds it); the platform's
      // records about it, its closing among them, stay readable.
      return merge([await platformRows(ctx, eq(auditLog.tenantId, row.id), filter)], filter.limit);
    }
    const tenant = await resolveTenant(bindingsOf(ctx), ctx.platform, slug, { allowSuspended: true }).catch(
      () => null,
    );
    if (!tenant) {
      return { items: [], nextCursor: null };
    }
    return merge(
      await Promise.all([
        tenantRows(ctx, tenant, filter),
        platformRows(ctx, eq(auditLog.tenantId, tenant.id), filter),
      ]),
      filter.limit,
    );
  }
  const all = await ctx.platform
    .select()
    .from(tenants)
    .where(inArray(tenants.status, ["active", "suspended"]));
  return merge(
    await Promise.all([
      platformRows(ctx, undefined, filter),
      ...all.map((t) => tenantRows(ctx, toTenantInfo(t), filter)),
    ]),
    filter.limit,
  );
}
