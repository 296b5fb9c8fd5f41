import type { Actor, PlatformCtx, Role, TenantCtx } from "../context";
import { tenantCtxFor } from "./system";

/**
 * A community the signed-in user belongs to, by a membership identity read for them: the one way a
 * user's own communities are walked (identity's `ownCommunityCtx`). Its own file so that a path rule
 * in biome.json keeps it to src/modules/identity (ADR 0050). The actor is the user with that
 * membership's roles. Same checks as the guard.
 */
export async function memberTenantCtx(
  base: PlatformCtx,
  membership: { userId: string; tenantSlug: string; roles: readonly Role[] },
): Promise<TenantCtx> {
  if (base.actor.kind !== "user" || base.actor.userId !== membership.userId) {
    throw new Error("memberTenantCtx is for the signed-in user's own memberships");
  }
  const actor: Actor = { ...base.actor, roles: membership.roles, tenantSlug: membership.tenantSlug };
  return tenantCtxFor(base, membership.tenantSlug, { actor });
}
