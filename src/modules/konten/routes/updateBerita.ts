import type { Context } from "hono";
import type { RouteEnv } from "../../../core/env";
import { tenantCtx } from "../../../core/http/access";
import { Endpoint } from "../../../core/http/endpoint";
import { IdParam, json, problems } from "../../../core/http/openapi";
import { updateBerita } from "../berita";
import { Berita, UpdateBeritaInput } from "../schemas";

const schema = {
  tags: ["Berita"],
  summary: "Edit, publish or unpublish a news item",
  description:
    "Secretary and admin. Changes fields and moves draft ⇄ terbit. Publishing, or editing published " +
    "news, pushes it again, once per version; unpublishing and republishing without an edit sends " +
    "nothing. 422 `foreign_image` for a body image that is not this community's; 409 `conflict` when " +
    "the item changed meanwhile. Optional If-Match (412 `precondition_failed`). Audited.",
  request: { params: IdParam, body: { content: { "application/json": { schema: UpdateBeritaInput } } } },
  responses: { 200: json(Berita), ...problems(400, 401, 403, 404, 409, 422) },
};

export class UpdateBerita extends Endpoint {
  override schema = schema;

  override async handle(c: Context<RouteEnv>) {
    const { params, body } = await this.getValidatedData<typeof this.schema>();
    return c.json(await updateBerita({ ctx: tenantCtx(c), id: params.id, input: body }));
  }
}
