import type { Context } from "hono";
import type { PlatformCtx, TenantCtx } from "../../../core/context";
import type { HonoEnv } from "../../../core/env";
import { Forbidden } from "../../../core/errors";
import { platformCtx } from "../../../core/http/access";
import { Endpoint } from "../../../core/http/endpoint";
import { json, problems } from "../../../core/http/openapi";
import { tenantCtxFor } from "../../../core/tenancy/contexts";
import { unitsByIds } from "../../kependudukan/service";
import { Me } from "../schemas";
import { me } from "../service";

/**
 * The unit lives in the current tenant's database, so it is read through kependudukan with a tenant
 * context for the token's tenant claim: identity's `me()` stays free of tenant data, and no cycle
 * joins identity and kependudukan (kependudukan asks identity for profiles).
 */
async function unitOf(ctx: PlatformCtx, profile: { unitId: string | null; tenant: { slug: string } | null }) {
  if (!profile.unitId || !profile.tenant) {
    return null;
  }
  let tenant: TenantCtx;
  try {
    tenant = await tenantCtxFor(ctx, profile.tenant.slug);
  } catch (error) {
    // A suspended community's database is closed to every request, but the account and its list of
    // memberships are the person's own: they still need them to switch to another community.
    if (error instanceof Forbidden) {
      return null;
    }
    throw error;
  }
  const unitId = profile.unitId;
  return (await unitsByIds({ ctx: tenant, ids: [unitId] })).get(unitId) ?? null;
}

export class GetMe extends Endpoint {
  override schema = {
    tags: ["User"],
    summary: "The caller, the current tenant and role, and all memberships",
    responses: { 200: json(Me), ...problems(401, 404) },
  };

  override async handle(c: Context<HonoEnv>) {
    const ctx = platformCtx(c);
    const profile = await me({ ctx });
    return c.json({ ...profile, unit: await unitOf(ctx, profile) });
  }
}
