import type { Context } from "hono";
import type { RouteEnv } from "../../../core/env";
import { tenantCtx } from "../../../core/http/access";
import { Endpoint } from "../../../core/http/endpoint";
import { json, tenantProblems } from "../../../core/http/openapi";
import { PlanList } from "../schemas";
import { listPlans } from "../service";

const schema = {
  tags: ["Langganan"],
  summary: "List the subscription plans",
  description:
    "Community staff (sekretaris, bendahara, admin). The plans a community can subscribe to: name, " +
    "price per month in rupiah and resident limit; retired plans are not offered.",
  responses: { 200: json(PlanList), ...tenantProblems },
};

export class ListPlans extends Endpoint {
  override schema = schema;

  override async handle(c: Context<RouteEnv>) {
    return c.json(await listPlans({ ctx: tenantCtx(c), includeInactive: false }));
  }
}
