import type { Context } from "hono";
import type { RouteEnv } from "../../../core/env";
import { tenantCtx } from "../../../core/http/access";
import { Endpoint } from "../../../core/http/endpoint";
import { tenantProblems } from "../../../core/http/openapi";
import { PhotoParams } from "../schemas";
import { deletePhoto } from "../service";

const schema = {
  tags: ["Galeri"],
  summary: "Delete a photo from an album",
  description:
    "Secretary and admin. Deletes one photo of the album and its stored image; 404 for a photo of " +
    "another album.",
  request: { params: PhotoParams },
  responses: { 204: { description: "Deleted" }, ...tenantProblems },
};

export class DeletePhoto extends Endpoint {
  override schema = schema;

  override async handle(c: Context<RouteEnv>) {
    const { params } = await this.getValidatedData<typeof this.schema>();
    await deletePhoto({ ctx: tenantCtx(c), id: params.id, photoId: params.photoId });
    return c.body(null, 204);
  }
}
