import type { Context } from "hono";
import type { RouteEnv } from "../../../core/env";
import { tenantCtx } from "../../../core/http/access";
import { Endpoint } from "../../../core/http/endpoint";
import { IdParam, json, tenantProblems } from "../../../core/http/openapi";
import { Device } from "../schemas";
import { activateDevice } from "../service";

const schema = {
  tags: ["Gate devices"],
  summary: "Activate a gate device",
  description:
    "Admin only, with the guest book (`tamu`) switched on. Accepts the device's webhook calls again " +
    "after a deactivation.",
  request: { params: IdParam },
  responses: { 200: json(Device), ...tenantProblems },
};

export class ActivateDevice extends Endpoint {
  override schema = schema;

  override async handle(c: Context<RouteEnv>) {
    const { params } = await this.getValidatedData<typeof this.schema>();
    return c.json(await activateDevice({ ctx: tenantCtx(c), id: params.id }));
  }
}
