import type { BatchItem } from "drizzle-orm/batch";
import { platformAudit } from "../../core/audit";
import { forgetMemberships } from "../../core/auth/liveness";
import type { PlatformCtx } from "../../core/context";
import { Gone } from "../../core/errors";
import { tenantRowById } from "../../core/tenancy/contexts";
import {
  type InvitationResult,
  type InvitingCtx,
  inviteAdmin,
  isAccountConflict,
  type PreparedAdminInvitation,
} from "../identity/service";
import type { AdminInviteeInput } from "./schemas";

/**
 * A community's admins, as the operator appoints them (issue 27, item 1): the first one when the tenant
 * is created, and more (or a lost link re-sent) later. Identity decides what to send; the operator's
 * answer says how it went out and never carries a link or says whether an account existed.
 */

export const tenantClosed = () =>
  new Gone("tenant_closed", "This community has been closed and no longer uses the service.");

/** What identity needs to invite into a tenant the operator names (no tenant context of its own). */
export function invitingCtx(ctx: PlatformCtx, tenant: { id: string; name: string }): InvitingCtx {
  return {
    platform: ctx.platform,
    env: ctx.env,
    requestId: ctx.requestId,
    now: ctx.now,
    actor: ctx.actor,
    tenant: { id: tenant.id, name: tenant.name },
  };
}

/**
 * Prepares an admin's invitation and commits its statements together with the caller's own (`with`),
 * then sends it. When someone takes the email or number between the check and the batch (a unique
 * race), the invitation is prepared once more: it then becomes that account's join link.
 */
export async function commitAdminInvitation(
  ctx: InvitingCtx,
  input: AdminInviteeInput,
  commit: (prepared: PreparedAdminInvitation) => Promise<void>,
): Promise<{ outcome: PreparedAdminInvitation["outcome"]; send: () => Promise<InvitationResult> }> {
  const invitee = { fullName: input.name, email: input.email ?? null, whatsapp: input.whatsapp ?? null };
  for (let attempt = 1; ; attempt++) {
    const prepared = await inviteAdmin({ ctx, input: invitee });
    try {
      await commit(prepared);
      if (prepared.outcome === "duty_added") {
        // An existing member's new duty stands on their next request (ADR 0043).
        forgetMemberships();
      }
      return { outcome: prepared.outcome, send: prepared.send };
    } catch (error) {
      if (attempt >= 2 || !isAccountConflict(error)) {
        throw error;
      }
    }
  }
}

/**
 * `POST /api/platform/tenants/:id/admin-invitations`: invites another admin, or re-sends the link of
 * one who never set a password; a member without the duty gets it (inviteAdmin says how). 404 for an
 * unknown tenant, 410 for a closed one, 409 `already_member` for an admin who already signs in.
 */
export async function inviteTenantAdmin({
  ctx,
  id,
  input,
}: {
  ctx: PlatformCtx;
  id: string;
  input: AdminInviteeInput;
}): Promise<InvitationResult> {
  const tenant = await tenantRowById(ctx, id);
  if (tenant.status === "ditutup") {
    throw tenantClosed();
  }
  const { send } = await commitAdminInvitation(invitingCtx(ctx, tenant), input, async (prepared) => {
    const record: BatchItem<"sqlite"> = platformAudit(ctx, {
      tenantId: tenant.id,
      action: "tenant.admin_invite",
      targetType: "tenant",
      targetId: tenant.id,
      detail: { outcome: prepared.outcome },
    });
    await ctx.platform.batch([...prepared.statements, record]);
  });
  return send();
}
