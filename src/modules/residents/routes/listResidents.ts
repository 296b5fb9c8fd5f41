import type { Context } from "hono";
import type { RouteEnv } from "../../../core/env";
import { tenantCtx } from "../../../core/http/access";
import { Endpoint } from "../../../core/http/endpoint";
import { json, listOf, tenantProblems } from "../../../core/http/openapi";
import { listResidents } from "../residents";
import { Resident, ResidentListQuery } from "../schemas";

const schema = {
  tags: ["Residents"],
  summary: "List resident accounts",
  description:
    "Community staff (sekretaris, bendahara, admin), with `warga` on. The community's resident " +
    "accounts with their housing unit and whether they have set a password, paged by `cursor`.",
  request: { query: ResidentListQuery },
  responses: { 200: json(listOf(Resident)), ...tenantProblems },
};

export class ListResidents extends Endpoint {
  override schema = schema;

  override async handle(c: Context<RouteEnv>) {
    const { query } = await this.getValidatedData<typeof this.schema>();
    return c.json(await listResidents({ ctx: tenantCtx(c), input: query }));
  }
}
