import { and, desc, eq, gte, isNull, lt, type SQL } from "drizzle-orm";
import type { PlatformCtx, TenantCtx } from "../../core/context";
import { platformDb } from "../../core/db/platform";
import { auditLog, tenants } from "../../core/db/platform-schema";
import type { Bindings } from "../../core/env";
import { jakartaDayRange, toJakartaIso } from "../../core/time";
import { userNames } from "../identity/service";
import type { AuditQuery, PlatformAuditQuery } from "./schemas";

async function page(env: Bindings, scope: SQL | undefined, input: AuditQuery) {
  const range = jakartaDayRange(input.from, input.to);
  const filters: (SQL | undefined)[] = [scope];
  if (range.gte) {
    filters.push(gte(auditLog.createdAt, range.gte));
  }
  if (range.lt) {
    filters.push(lt(auditLog.createdAt, range.lt));
  }
  if (input.actor) {
    filters.push(eq(auditLog.actorId, input.actor));
  }
  if (input.action) {
    filters.push(eq(auditLog.action, input.action));
  }
  if (input.cursor) {
    filters.push(lt(auditLog.id, input.cursor));
  }
  // Ids are ULIDs made at insert, so id order is time order and a keyset cursor needs no tie-breaker.
  const rows = await platformDb(env)
    .select()
    .from(auditLog)
    .where(and(...filters))
    .orderBy(desc(auditLog.id))
    .limit(input.limit + 1);
  const items = rows.slice(0, input.limit);
  const names = await userNames(
    env,
    items.map((r) => r.actorId).filter((id): id is string => id !== null),
  );
  return {
    items: items.map((r) => ({
      id: r.id,
      tenantId: r.tenantId,
      actorId: r.actorId,
      actorName: r.actorId ? (names.get(r.actorId) ?? null) : null,
      actorRole: r.actorRole,
      action: r.action,
      targetType: r.targetType,
      targetId: r.targetId,
      ip: r.ip,
      requestId: r.requestId,
      detail: r.detail ? (JSON.parse(r.detail) as Record<string, unknown>) : null,
      createdAt: toJakartaIso(r.createdAt),
    })),
    nextCursor: rows.length > input.limit ? (items.at(-1)?.id ?? null) : null,
  };
}

/** A tenant admin sees their own community's record only. */
export async function listTenantAudit({ ctx, input }: { ctx: TenantCtx; input: AuditQuery }) {
  return page(ctx.env, eq(auditLog.tenantId, ctx.tenant.id), input);
}

/** Operators see everything; `tenant` (slug or id) narrows to one community, `platform` to none. */
export async function listPlatformAudit({ ctx, input }: { ctx: PlatformCtx; input: PlatformAuditQuery }) {
  let scope: SQL | undefined;
  if (input.tenant === "platform") {
    scope = isNull(auditLog.tenantId);
  } else if (input.tenant) {
    const tenant = await platformDb(ctx.env)
      .select({ id: tenants.id })
      .from(tenants)
      .where(eq(tenants.slug, input.tenant))
      .get();
    scope = eq(auditLog.tenantId, tenant?.id ?? input.tenant);
  }
  return page(ctx.env, scope, input);
}
