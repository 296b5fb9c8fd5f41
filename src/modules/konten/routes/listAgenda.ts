import type { Context } from "hono";
import type { RouteEnv } from "../../../core/env";
import { tenantCtx } from "../../../core/http/access";
import { Endpoint } from "../../../core/http/endpoint";
import { json, listOf, problems } from "../../../core/http/openapi";
import { listAgenda } from "../agenda";
import { Agenda, AgendaListQuery } from "../schemas";

const schema = {
  tags: ["Agenda"],
  summary: "List community events",
  description:
    "Members. Events soonest first: without `from`/`to` those that have not ended yet, with them " +
    "those starting on those Asia/Jakarta days. Paged by `cursor`.",
  request: { query: AgendaListQuery },
  responses: { 200: json(listOf(Agenda)), ...problems(400, 401, 403) },
};

export class ListAgenda extends Endpoint {
  override schema = schema;

  override async handle(c: Context<RouteEnv>) {
    const { query } = await this.getValidatedData<typeof this.schema>();
    return c.json(await listAgenda({ ctx: tenantCtx(c), input: query }));
  }
}
