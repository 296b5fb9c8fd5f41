import type { Context } from "hono";
import type { RouteEnv } from "../../../core/env";
import { tenantCtx } from "../../../core/http/access";
import { Endpoint } from "../../../core/http/endpoint";
import { json, problems } from "../../../core/http/openapi";
import { UpdateVehicleInput, Vehicle, VehicleParams } from "../schemas";
import { updateVehicle } from "../vehicles";

const schema = {
  tags: ["Kependudukan"],
  summary: "Update a vehicle",
  description:
    "Secretary and admin, with the registry (`warga`) switched on. Changes a vehicle (partial); a new " +
    "plate must be unique in the community (409 `plate_taken`). Optional If-Match (412 " +
    "`precondition_failed`). Audited.",
  request: {
    params: VehicleParams,
    body: { content: { "application/json": { schema: UpdateVehicleInput } } },
  },
  responses: { 200: json(Vehicle), ...problems(400, 401, 403, 404, 409) },
};

export class UpdateVehicle extends Endpoint {
  override schema = schema;

  override async handle(c: Context<RouteEnv>) {
    const { params, body } = await this.getValidatedData<typeof this.schema>();
    return c.json(
      await updateVehicle({ ctx: tenantCtx(c), id: params.id, vehicleId: params.vehicleId, input: body }),
    );
  }
}
