import { auditInsert } from "../../core/audit";
import type { TenantCtx, TenantRole } from "../../core/context";
import { keysetPage } from "../../core/db/paging";
import { platformDb } from "../../core/db/platform";
import { tellResident } from "../../core/notifier";

/** Who answers complaints, reads suggestions and decides proposals: the secretary and the head. */
export const ASPIRASI_STAFF: TenantRole[] = ["sekretaris", "admin"];
export const isStaff = (ctx: TenantCtx) =>
  ctx.actor.kind === "user" && (ASPIRASI_STAFF as string[]).includes(ctx.actor.role);

export function userId(ctx: TenantCtx): string {
  if (ctx.actor.kind !== "user") {
    throw new Error("aspirasi verbs need a signed-in user");
  }
  return ctx.actor.userId;
}

export function audit(
  ctx: TenantCtx,
  action: string,
  targetType: string,
  targetId: string,
  detail?: Record<string, unknown>,
) {
  return auditInsert(platformDb(ctx.env), ctx, {
    tenantId: ctx.tenant.id,
    action,
    targetType,
    targetId,
    detail,
  });
}

/** Email (or WhatsApp without an email) to a resident; see tellResident. */
export async function notifyResident(
  ctx: TenantCtx,
  residentId: string,
  message: { subject: string; text: string; idempotencyKey: string },
): Promise<void> {
  await tellResident(ctx, residentId, message);
}

/** Keyset page of `limit + 1` rows (see core/db/paging). */
export const page = keysetPage;
