import { type AuditRecord, readPlatformAudit, readTenantAudit } from "../../core/audit";
import type { PlatformCtx, TenantCtx } from "../../core/context";
import { toJakartaIso } from "../../core/time";
import { userNames } from "../identity/service";
import type { AuditQuery, PlatformAuditQuery } from "./schemas";

/** Core reads the records (the tenant's own database and the control plane); this adds who the actors are. */
async function present(ctx: PlatformCtx, page: { items: AuditRecord[]; nextCursor: string | null }) {
  const names = await userNames({
    ctx,
    ids: page.items.map((r) => r.actorId).filter((id): id is string => id !== null),
  });
  return {
    items: page.items.map((r) => ({
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
      detail: r.detail,
      createdAt: toJakartaIso(r.createdAt),
    })),
    nextCursor: page.nextCursor,
  };
}

/** A tenant admin sees their own community's record only. */
export async function listTenantAudit({ ctx, input }: { ctx: TenantCtx; input: AuditQuery }) {
  return present(ctx, await readTenantAudit(ctx, input));
}

/** Operators see everything; `tenant` (slug or id) narrows to one community, `platform` to none. */
export async function listPlatformAudit({ ctx, input }: { ctx: PlatformCtx; input: PlatformAuditQuery }) {
  return present(ctx, await readPlatformAudit(ctx, input));
}
