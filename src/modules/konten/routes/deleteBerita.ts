import type { Context } from "hono";
import type { RouteEnv } from "../../../core/env";
import { tenantCtx } from "../../../core/http/access";
import { Endpoint } from "../../../core/http/endpoint";
import { IdParam, problems } from "../../../core/http/openapi";
import { deleteBerita } from "../berita";

const schema = {
  tags: ["Berita"],
  summary: "Delete a news item",
  description:
    "Secretary and admin. Deletes the item for good. Optional If-Match with its ETag (412 " +
    "`precondition_failed`). Audited.",
  request: { params: IdParam },
  responses: { 204: { description: "Deleted" }, ...problems(400, 401, 403, 404) },
};

export class DeleteBerita extends Endpoint {
  override schema = schema;

  override async handle(c: Context<RouteEnv>) {
    const { params } = await this.getValidatedData<typeof this.schema>();
    await deleteBerita({ ctx: tenantCtx(c), id: params.id });
    return c.body(null, 204);
  }
}
