import type { Context } from "hono";
import type { RouteEnv } from "../../../core/env";
import { tenantCtx } from "../../../core/http/access";
import { Endpoint } from "../../../core/http/endpoint";
import { json, problems } from "../../../core/http/openapi";
import { requireCompleteProfile } from "../../identity/service";
import { Household } from "../schemas";
import { householdAt } from "../service";

const schema = {
  tags: ["Kependudukan"],
  summary: "Get the caller's household",
  description:
    "Residents only, with `warga` on. Every family card (KK) at the caller's housing unit with its " +
    "members, NIKs masked: whom a letter may be requested for, and which member is the caller. Needs " +
    "a complete profile with a unit: 409 `profile_incomplete` otherwise.",
  responses: { 200: json(Household), ...problems(401, 403, 409) },
};

export class GetMyHousehold extends Endpoint {
  override schema = schema;

  override async handle(c: Context<RouteEnv>) {
    const ctx = tenantCtx(c);
    // The registry knows units, identity knows whose unit and person is whose: the route joins the two.
    const { unitId, personId } = await requireCompleteProfile({ ctx });
    return c.json(await householdAt({ ctx, id: unitId, personId }));
  }
}
