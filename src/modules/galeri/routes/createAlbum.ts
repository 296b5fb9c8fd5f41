import type { Context } from "hono";
import type { RouteEnv } from "../../../core/env";
import { tenantCtx } from "../../../core/http/access";
import { Endpoint } from "../../../core/http/endpoint";
import { json, problems } from "../../../core/http/openapi";
import { AlbumWithPhotos, CreateAlbumInput } from "../schemas";
import { createAlbum } from "../service";

const schema = {
  tags: ["Galeri"],
  summary: "Create a gallery album",
  description:
    "Secretary and admin. Creates an album with a title and an optional description and event date; " +
    "photos are added with `POST /api/galeri/{id}/foto`. Audited.",
  request: { body: { content: { "application/json": { schema: CreateAlbumInput } } } },
  responses: { 201: json(AlbumWithPhotos, "Created"), ...problems(400, 401, 403) },
};

export class CreateAlbum extends Endpoint {
  override schema = schema;

  override async handle(c: Context<RouteEnv>) {
    const { body } = await this.getValidatedData<typeof this.schema>();
    return c.json(await createAlbum({ ctx: tenantCtx(c), input: body }), 201);
  }
}
