import type { Context } from "hono";
import type { RouteEnv } from "../../../core/env";
import { tenantCtx } from "../../../core/http/access";
import { Endpoint } from "../../../core/http/endpoint";
import { problems } from "../../../core/http/openapi";
import { VehicleParams } from "../schemas";
import { deleteVehicle } from "../vehicles";

const schema = {
  tags: ["Kependudukan"],
  summary: "Delete a vehicle",
  description:
    "Secretary and admin, with the registry (`warga`) switched on. Removes a vehicle from its KK. " +
    "Optional If-Match (412 `precondition_failed`). Audited.",
  request: { params: VehicleParams },
  responses: { 204: { description: "Deleted" }, ...problems(400, 401, 403, 404) },
};

export class DeleteVehicle extends Endpoint {
  override schema = schema;

  override async handle(c: Context<RouteEnv>) {
    const { params } = await this.getValidatedData<typeof this.schema>();
    await deleteVehicle({ ctx: tenantCtx(c), id: params.id, vehicleId: params.vehicleId });
    return c.body(null, 204);
  }
}
