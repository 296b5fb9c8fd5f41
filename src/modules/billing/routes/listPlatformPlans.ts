import type { Context } from "hono";
import type { RouteEnv } from "../../../core/env";
import { platformCtx } from "../../../core/http/access";
import { Endpoint } from "../../../core/http/endpoint";
import { json, problems } from "../../../core/http/openapi";
import { PlanList } from "../schemas";
import { listPlans } from "../service";

const schema = {
  tags: ["Platform"],
  summary: "List every subscription plan",
  description:
    "Platform operators only. Every plan with its price per month, resident limit and whether it is " +
    "retired (no longer offered).",
  responses: { 200: json(PlanList), ...problems(401, 403) },
};

export class ListPlatformPlans extends Endpoint {
  override schema = schema;

  override async handle(c: Context<RouteEnv>) {
    return c.json(await listPlans({ ctx: platformCtx(c), includeInactive: true }));
  }
}
