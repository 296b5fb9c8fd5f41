import type { Context } from "hono";
import type { RouteEnv } from "../../../core/env";
import { tenantCtx } from "../../../core/http/access";
import { Endpoint } from "../../../core/http/endpoint";
import { IdParam, json, problems } from "../../../core/http/openapi";
import { getBerita } from "../berita";
import { Berita } from "../schemas";

const schema = {
  tags: ["Berita"],
  summary: "Get a news item",
  description:
    "Members. One news item with its rendered HTML; a draft exists only for the secretary and admin " +
    "(404 for anyone else). ETag and 304 for If-None-Match.",
  request: { params: IdParam },
  responses: { 200: json(Berita), ...problems(400, 401, 403, 404) },
};

export class GetBerita extends Endpoint {
  override schema = schema;

  override async handle(c: Context<RouteEnv>) {
    const { params } = await this.getValidatedData<typeof this.schema>();
    return c.json(await getBerita({ ctx: tenantCtx(c), id: params.id }));
  }
}
