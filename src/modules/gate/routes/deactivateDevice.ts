import type { Context } from "hono";
import type { RouteEnv } from "../../../core/env";
import { tenantCtx } from "../../../core/http/access";
import { Endpoint } from "../../../core/http/endpoint";
import { IdParam, json, tenantProblems } from "../../../core/http/openapi";
import { Device } from "../schemas";
import { deactivateDevice } from "../service";

const schema = {
  tags: ["Gate devices"],
  summary: "Deactivate a gate device",
  description:
    "Admin only, with the guest book (`tamu`) switched on. The device's webhook calls are refused " +
    "(403 `device_inactive`) until it is activated again; its key is kept.",
  request: { params: IdParam },
  responses: { 200: json(Device), ...tenantProblems },
};

export class DeactivateDevice extends Endpoint {
  override schema = schema;

  override async handle(c: Context<RouteEnv>) {
    const { params } = await this.getValidatedData<typeof this.schema>();
    return c.json(await deactivateDevice({ ctx: tenantCtx(c), id: params.id }));
  }
}
