import type { Context } from "hono";
import type { HonoEnv } from "../../../core/env";
import { tenantCtx } from "../../../core/http/access";
import { Endpoint } from "../../../core/http/endpoint";
import { json, listOf, tenantProblems } from "../../../core/http/openapi";
import { MineQuery, Visitor } from "../schemas";
import { listMyVisitors } from "../service";

export class ListMyVisitors extends Endpoint {
  override schema = {
    tags: ["Tamu"],
    summary: "The caller's guest registrations, with the pass of approved ones",
    request: { query: MineQuery },
    responses: { 200: json(listOf(Visitor)), ...tenantProblems },
  };

  override async handle(c: Context<HonoEnv>) {
    const { query } = await this.getValidatedData<typeof this.schema>();
    return c.json(await listMyVisitors({ ctx: tenantCtx(c), input: query }));
  }
}
