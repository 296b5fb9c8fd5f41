import type { Context } from "hono";
import type { RouteEnv } from "../../../core/env";
import { tenantCtx } from "../../../core/http/access";
import { Endpoint } from "../../../core/http/endpoint";
import { json, listOf, tenantProblems } from "../../../core/http/openapi";
import { MineQuery, Visitor } from "../schemas";
import { listMyVisitors } from "../service";

const schema = {
  tags: ["Tamu"],
  summary: "List the caller's guest registrations",
  description:
    "Residents only, with `tamu` on. The caller's own registrations, newest first, each with its " +
    "status and, once approved, its pass, paged by `cursor`.",
  request: { query: MineQuery },
  responses: { 200: json(listOf(Visitor)), ...tenantProblems },
};

export class ListMyVisitors extends Endpoint {
  override schema = schema;

  override async handle(c: Context<RouteEnv>) {
    const { query } = await this.getValidatedData<typeof this.schema>();
    return c.json(await listMyVisitors({ ctx: tenantCtx(c), input: query }));
  }
}
