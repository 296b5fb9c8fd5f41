import type { Context } from "hono";
import type { RouteEnv } from "../../../core/env";
import { tenantCtx } from "../../../core/http/access";
import { Endpoint } from "../../../core/http/endpoint";
import { IdParam, json, problems } from "../../../core/http/openapi";
import { Vehicle, VehicleInput } from "../schemas";
import { addVehicle } from "../vehicles";

const schema = {
  tags: ["Kependudukan"],
  summary: "Register a household's vehicle",
  description:
    "Secretary and admin, with the registry (`warga`) switched on. Registers a vehicle on a KK by " +
    "plate, kind and description; the plate is unique in the community (409 `plate_taken`). Audited.",
  request: { params: IdParam, body: { content: { "application/json": { schema: VehicleInput } } } },
  responses: { 201: json(Vehicle, "Registered"), ...problems(400, 401, 403, 404, 409) },
};

export class AddVehicle extends Endpoint {
  override schema = schema;

  override async handle(c: Context<RouteEnv>) {
    const { params, body } = await this.getValidatedData<typeof this.schema>();
    return c.json(await addVehicle({ ctx: tenantCtx(c), id: params.id, input: body }), 201);
  }
}
