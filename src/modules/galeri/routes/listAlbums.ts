import type { Context } from "hono";
import type { RouteEnv } from "../../../core/env";
import { tenantCtx } from "../../../core/http/access";
import { Endpoint } from "../../../core/http/endpoint";
import { json, listOf, tenantProblems } from "../../../core/http/openapi";
import { Album, AlbumListQuery } from "../schemas";
import { listAlbums } from "../service";

const schema = {
  tags: ["Galeri"],
  summary: "List gallery albums",
  description:
    "Members. Gallery albums, newest first, each with its photo count and cover, paged by `cursor`.",
  request: { query: AlbumListQuery },
  responses: { 200: json(listOf(Album)), ...tenantProblems },
};

export class ListAlbums extends Endpoint {
  override schema = schema;

  override async handle(c: Context<RouteEnv>) {
    const { query } = await this.getValidatedData<typeof this.schema>();
    return c.json(await listAlbums({ ctx: tenantCtx(c), input: query }));
  }
}
