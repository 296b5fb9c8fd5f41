import type { Context } from "hono";
import type { RouteEnv } from "../../../core/env";
import { tenantCtx } from "../../../core/http/access";
import { Endpoint } from "../../../core/http/endpoint";
import { IdParam, json, tenantProblems } from "../../../core/http/openapi";
import { AlbumWithPhotos } from "../schemas";
import { getAlbum } from "../service";

const schema = {
  tags: ["Galeri"],
  summary: "Get a gallery album with its photos",
  description:
    "Members. One album with its photos, oldest first, each with its image URL and caption. ETag and " +
    "304 for If-None-Match.",
  request: { params: IdParam },
  responses: { 200: json(AlbumWithPhotos), ...tenantProblems },
};

export class GetAlbum extends Endpoint {
  override schema = schema;

  override async handle(c: Context<RouteEnv>) {
    const { params } = await this.getValidatedData<typeof this.schema>();
    return c.json(await getAlbum({ ctx: tenantCtx(c), id: params.id }));
  }
}
