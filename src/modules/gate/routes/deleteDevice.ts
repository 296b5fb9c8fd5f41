import type { Context } from "hono";
import type { RouteEnv } from "../../../core/env";
import { tenantCtx } from "../../../core/http/access";
import { Endpoint } from "../../../core/http/endpoint";
import { IdParam, problems } from "../../../core/http/openapi";
import { deleteDevice } from "../service";

const schema = {
  tags: ["Gate devices"],
  summary: "Delete a gate device",
  description:
    "Admin only, with the guest book (`tamu`) switched on. The device leaves the list and its key " +
    "stops working at once (401 `invalid_device_key` on its next call).",
  request: { params: IdParam },
  responses: { 204: { description: "Deleted" }, ...problems(401, 403, 404) },
};

export class DeleteDevice extends Endpoint {
  override schema = schema;

  override async handle(c: Context<RouteEnv>) {
    const { params } = await this.getValidatedData<typeof this.schema>();
    await deleteDevice({ ctx: tenantCtx(c), id: params.id });
    return c.body(null, 204);
  }
}
