import type { Context } from "hono";
import type { HonoEnv } from "../../../core/env";
import { tenantCtx } from "../../../core/http/access";
import { Endpoint } from "../../../core/http/endpoint";
import { json, listOf, tenantProblems } from "../../../core/http/openapi";
import { Unit, UnitListQuery } from "../schemas";
import { listUnits } from "../service";

export class ListUnits extends Endpoint {
  override schema = {
    tags: ["Kependudukan"],
    summary: "Housing units of the community, with coordinates",
    request: { query: UnitListQuery },
    responses: { 200: json(listOf(Unit)), ...tenantProblems },
  };

  override async handle(c: Context<HonoEnv>) {
    const { query } = await this.getValidatedData<typeof this.schema>();
    return c.json(await listUnits({ ctx: tenantCtx(c), input: query }));
  }
}
