import type { Context } from "hono";
import type { RouteEnv } from "../../../core/env";
import { tenantCtx } from "../../../core/http/access";
import { Endpoint } from "../../../core/http/endpoint";
import { IdParam, json, problems } from "../../../core/http/openapi";
import { getAgenda } from "../agenda";
import { Agenda } from "../schemas";

const schema = {
  tags: ["Agenda"],
  summary: "Get a community event",
  description:
    "Members. One community event with its title, description, place, start and end. ETag and 304 for " +
    "If-None-Match.",
  request: { params: IdParam },
  responses: { 200: json(Agenda), ...problems(400, 401, 403, 404) },
};

export class GetAgenda extends Endpoint {
  override schema = schema;

  override async handle(c: Context<RouteEnv>) {
    const { params } = await this.getValidatedData<typeof this.schema>();
    return c.json(await getAgenda({ ctx: tenantCtx(c), id: params.id }));
  }
}
