import type { Context } from "hono";
import type { RouteEnv } from "../../../core/env";
import { tenantCtx } from "../../../core/http/access";
import { Endpoint } from "../../../core/http/endpoint";
import { IdParam, json, problems } from "../../../core/http/openapi";
import { Unit, UpdateUnitInput } from "../schemas";
import { updateUnit } from "../service";

const schema = {
  tags: ["Kependudukan"],
  summary: "Update a housing unit",
  description:
    "Secretary and admin, with the registry (`warga`) switched on. Changes a unit (partial): block, " +
    "number, coordinates, occupancy. 409 `unit_exists` when the new block and number belong to " +
    "another unit. Optional If-Match (412 `precondition_failed`). Audited.",
  request: { params: IdParam, body: { content: { "application/json": { schema: UpdateUnitInput } } } },
  responses: { 200: json(Unit), ...problems(400, 401, 403, 404, 409) },
};

export class UpdateUnit extends Endpoint {
  override schema = schema;

  override async handle(c: Context<RouteEnv>) {
    const { params, body } = await this.getValidatedData<typeof this.schema>();
    return c.json(await updateUnit({ ctx: tenantCtx(c), id: params.id, input: body }));
  }
}
