import type { Context } from "hono";
import type { RouteEnv } from "../../../core/env";
import { tenantCtx } from "../../../core/http/access";
import { Endpoint } from "../../../core/http/endpoint";
import { IdParam, json, tenantProblems } from "../../../core/http/openapi";
import { Unit } from "../schemas";
import { getUnit } from "../service";

const schema = {
  tags: ["Kependudukan"],
  summary: "Get a housing unit",
  description:
    "Secretary and admin, with the registry (`warga`) switched on. One unit with its block, number, " +
    "coordinates and occupancy. ETag and 304 for If-None-Match.",
  request: { params: IdParam },
  responses: { 200: json(Unit), ...tenantProblems },
};

export class GetUnit extends Endpoint {
  override schema = schema;

  override async handle(c: Context<RouteEnv>) {
    const { params } = await this.getValidatedData<typeof this.schema>();
    return c.json(await getUnit({ ctx: tenantCtx(c), id: params.id }));
  }
}
