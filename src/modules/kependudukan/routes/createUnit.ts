import type { Context } from "hono";
import type { RouteEnv } from "../../../core/env";
import { tenantCtx } from "../../../core/http/access";
import { Endpoint } from "../../../core/http/endpoint";
import { json, problems } from "../../../core/http/openapi";
import { CreateUnitInput, Unit } from "../schemas";
import { createUnit } from "../service";

const schema = {
  tags: ["Kependudukan"],
  summary: "Register a housing unit",
  description:
    "Secretary and admin, with the registry (`warga`) switched on. Registers a unit by block and " +
    "house number, with optional coordinates and occupancy. 409 `unit_exists` when that block and " +
    "number are registered already. Audited.",
  request: { body: { content: { "application/json": { schema: CreateUnitInput } } } },
  responses: { 201: json(Unit, "Created"), ...problems(400, 401, 403, 409) },
};

export class CreateUnit extends Endpoint {
  override schema = schema;

  override async handle(c: Context<RouteEnv>) {
    const { body } = await this.getValidatedData<typeof this.schema>();
    return c.json(await createUnit({ ctx: tenantCtx(c), input: body }), 201);
  }
}
