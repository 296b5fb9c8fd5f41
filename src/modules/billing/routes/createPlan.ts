import type { Context } from "hono";
import type { RouteEnv } from "../../../core/env";
import { platformCtx } from "../../../core/http/access";
import { Endpoint } from "../../../core/http/endpoint";
import { json, problems } from "../../../core/http/openapi";
import { CreatePlanInput, Plan } from "../schemas";
import { createPlan } from "../service";

const schema = {
  tags: ["Platform"],
  summary: "Add a subscription plan",
  description:
    "Platform operators only. Adds a plan with its code, name, price per month in rupiah and resident " +
    "limit. 409 `plan_exists` for a code already used. Audited.",
  request: { body: { content: { "application/json": { schema: CreatePlanInput } } } },
  responses: { 201: json(Plan, "Created"), ...problems(400, 401, 403, 409) },
};

export class CreatePlan extends Endpoint {
  override schema = schema;

  override async handle(c: Context<RouteEnv>) {
    const { body } = await this.getValidatedData<typeof this.schema>();
    return c.json(await createPlan({ ctx: platformCtx(c), input: body }), 201);
  }
}
