import type { Context } from "hono";
import { z } from "zod";
import type { HonoEnv } from "../../../core/env";
import { platformCtx, tenantCtx } from "../../../core/http/access";
import { Endpoint } from "../../../core/http/endpoint";
import { json, problems, tenantProblems } from "../../../core/http/openapi";
import { Plan } from "../schemas";
import { listPlans } from "../service";

const PlanList = z.object({ items: z.array(Plan) }).openapi("BillingPlanList");

export class ListPlans extends Endpoint {
  override schema = {
    tags: ["Langganan"],
    summary: "The plans a community can subscribe to",
    responses: { 200: json(PlanList), ...tenantProblems },
  };

  override async handle(c: Context<HonoEnv>) {
    return c.json(await listPlans({ ctx: tenantCtx(c), includeInactive: false }));
  }
}

export class ListPlatformPlans extends Endpoint {
  override schema = {
    tags: ["Platform"],
    summary: "Every subscription plan, retired ones included",
    responses: { 200: json(PlanList), ...problems(401, 403) },
  };

  override async handle(c: Context<HonoEnv>) {
    return c.json(await listPlans({ ctx: platformCtx(c), includeInactive: true }));
  }
}
