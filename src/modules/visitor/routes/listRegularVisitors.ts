import type { Context } from "hono";
import type { RouteEnv } from "../../../core/env";
import { tenantCtx } from "../../../core/http/access";
import { Endpoint } from "../../../core/http/endpoint";
import { json, listOf, tenantProblems } from "../../../core/http/openapi";
import { listRegular } from "../regular";
import { MineQuery, RegularVisitor } from "../schemas";

const schema = {
  tags: ["Tamu"],
  summary: "List regular visitors' cards",
  description:
    "A resident lists their household's cards (revoked ones too); the guard and staff list every card " +
    "not revoked, each with `admittedNow` (inside a window now). With `tamu` on; paged by `cursor`.",
  request: { query: MineQuery },
  responses: { 200: json(listOf(RegularVisitor)), ...tenantProblems },
};

export class ListRegularVisitors extends Endpoint {
  override schema = schema;

  override async handle(c: Context<RouteEnv>) {
    const { query } = await this.getValidatedData<typeof this.schema>();
    return c.json(await listRegular({ ctx: tenantCtx(c), input: query }));
  }
}
