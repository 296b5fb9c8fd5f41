import type { Context } from "hono";
import type { PlatformCtx } from "../../../core/context";
import type { RouteEnv } from "../../../core/env";
import { platformCtx } from "../../../core/http/access";
import { Endpoint } from "../../../core/http/endpoint";
import { json, problems } from "../../../core/http/openapi";
import { houseAndUnitRequest } from "../../kependudukan/service";
import { unitRequestView } from "../profile";
import { Me } from "../schemas";
import { me, ownCommunityCtx } from "../service";

/**
 * The unit lives in the current tenant's database, so it is read through kependudukan with a tenant
 * context for the token's tenant claim: identity's `me()` stays free of tenant data, and no cycle
 * joins identity and kependudukan (kependudukan asks identity for profiles).
 */
async function houseOf(
  ctx: PlatformCtx,
  profile: { id: string; unitId: string | null; tenant: { slug: string } | null },
) {
  if (!profile.tenant) {
    return { unit: null, unitRequest: null };
  }
  // The profile's tenant is the token's. Null while it is suspended: the account and its list of
  // memberships are still the person's own, and they need them to switch to another community.
  const tenant = await ownCommunityCtx({ ctx });
  if (!tenant) {
    return { unit: null, unitRequest: null };
  }
  const { unit, unitRequest } = await houseAndUnitRequest({
    ctx: tenant,
    unitId: profile.unitId,
    userId: profile.id,
  });
  return { unit, unitRequest: unitRequestView(unitRequest) };
}

const schema = {
  tags: ["User"],
  summary: "Get the signed-in user",
  description:
    "Any signed-in user (an operator too). Answers the caller's account, the community and duties of " +
    "this session, whether they are a resident, their housing unit there (and their newest request " +
    "for one, `unitRequest`), and every membership they " +
    "hold, so a client can offer a community switch. 404 when the account no longer exists.",
  responses: { 200: json(Me), ...problems(401, 404) },
};

export class GetMe extends Endpoint {
  override schema = schema;

  override async handle(c: Context<RouteEnv>) {
    const ctx = platformCtx(c);
    const profile = await me({ ctx });
    return c.json({ ...profile, ...(await houseOf(ctx, profile)) });
  }
}
