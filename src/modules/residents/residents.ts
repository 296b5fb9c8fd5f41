import { platformAudit } from "../../core/audit";
import type { TenantCtx } from "../../core/context";
import { hasRole, ROLES } from "../../core/http/access";
import { inviteResident, listResidentAccounts, maskEmail, maskWhatsapp } from "../identity/service";
import { unitsByIds } from "../kependudukan/service";
import type { ResidentListQuery } from "./schemas";

/**
 * The tenant's resident accounts (identity), with their houses from the tenant's registry. Contacts
 * are whole for the admin and masked for other staff, as the members list shows them (issue 44, P8).
 */
export async function listResidents({ ctx, input }: { ctx: TenantCtx; input: ResidentListQuery }) {
  const whole = hasRole(ctx, ROLES.ADMIN);
  const page = await listResidentAccounts({ ctx, input });
  const units = await unitsByIds({
    ctx,
    ids: page.items.flatMap((r) => (r.unitId ? [r.unitId] : [])),
  });
  return {
    items: page.items.map((r) => ({
      userId: r.userId,
      name: r.name,
      email: r.email && !whole ? maskEmail(r.email) : r.email,
      whatsapp: r.whatsapp && !whole ? maskWhatsapp(r.whatsapp) : r.whatsapp,
      unit: r.unitId ? (units.get(r.unitId) ?? null) : null,
      hasPassword: r.hasPassword,
      joinedAt: r.joinedAt,
    })),
    nextCursor: page.nextCursor,
  };
}

/**
 * Re-sends a resident's set-password link (`id` is the resident's user id). Earlier invitation and
 * reset links stop working in the same batch that records who asked.
 */
export async function resetCredentials({ ctx, id }: { ctx: TenantCtx; id: string }) {
  const invitation = await inviteResident({ ctx, id });
  await ctx.platform.batch([
    platformAudit(ctx, { action: "resident.credentials_reset", targetType: "user", targetId: id }),
    ...invitation.statements,
  ]);
  return invitation.send();
}
