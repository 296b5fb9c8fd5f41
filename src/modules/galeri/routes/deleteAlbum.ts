import type { Context } from "hono";
import type { RouteEnv } from "../../../core/env";
import { tenantCtx } from "../../../core/http/access";
import { Endpoint } from "../../../core/http/endpoint";
import { IdParam, tenantProblems } from "../../../core/http/openapi";
import { deleteAlbum } from "../service";

const schema = {
  tags: ["Galeri"],
  summary: "Delete a gallery album",
  description:
    "Secretary and admin. Deletes an album with all its photos and their stored images. Optional " +
    "If-Match (412 `precondition_failed`). Audited.",
  request: { params: IdParam },
  responses: { 204: { description: "Deleted" }, ...tenantProblems },
};

export class DeleteAlbum extends Endpoint {
  override schema = schema;

  override async handle(c: Context<RouteEnv>) {
    const { params } = await this.getValidatedData<typeof this.schema>();
    await deleteAlbum({ ctx: tenantCtx(c), id: params.id });
    return c.body(null, 204);
  }
}
