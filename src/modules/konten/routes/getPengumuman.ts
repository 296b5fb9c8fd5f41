import type { Context } from "hono";
import type { RouteEnv } from "../../../core/env";
import { tenantCtx } from "../../../core/http/access";
import { Endpoint } from "../../../core/http/endpoint";
import { IdParam, json, problems } from "../../../core/http/openapi";
import { getPengumuman } from "../pengumuman";
import { Pengumuman } from "../schemas";

const schema = {
  tags: ["Pengumuman"],
  summary: "Get an announcement",
  description:
    "Members. One announcement; a draft exists only for the secretary and admin (404 for anyone " +
    "else). ETag and 304 for If-None-Match.",
  request: { params: IdParam },
  responses: { 200: json(Pengumuman), ...problems(400, 401, 403, 404) },
};

export class GetPengumuman extends Endpoint {
  override schema = schema;

  override async handle(c: Context<RouteEnv>) {
    const { params } = await this.getValidatedData<typeof this.schema>();
    return c.json(await getPengumuman({ ctx: tenantCtx(c), id: params.id }));
  }
}
