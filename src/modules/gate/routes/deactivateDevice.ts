import type { Context } from "hono";
import type { HonoEnv } from "../../../core/env";
import { tenantCtx } from "../../../core/http/access";
import { Endpoint } from "../../../core/http/endpoint";
import { IdParam, json, tenantProblems } from "../../../core/http/openapi";
import { Device } from "../schemas";
import { deactivateDevice } from "../service";

export class DeactivateDevice extends Endpoint {
  override schema = {
    tags: ["Gate devices"],
    summary: "Reject this device's webhook calls (403) until it is activated",
    request: { params: IdParam },
    responses: { 200: json(Device), ...tenantProblems },
  };

  override async handle(c: Context<HonoEnv>) {
    const { params } = await this.getValidatedData<typeof this.schema>();
    return c.json(await deactivateDevice({ ctx: tenantCtx(c), id: params.id }));
  }
}
