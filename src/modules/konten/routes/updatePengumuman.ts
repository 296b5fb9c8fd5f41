import type { Context } from "hono";
import type { RouteEnv } from "../../../core/env";
import { tenantCtx } from "../../../core/http/access";
import { Endpoint } from "../../../core/http/endpoint";
import { IdParam, json, problems } from "../../../core/http/openapi";
import { updatePengumuman } from "../pengumuman";
import { Pengumuman, UpdatePengumumanInput } from "../schemas";

const schema = {
  tags: ["Pengumuman"],
  summary: "Edit, publish or unpublish an announcement",
  description:
    "Secretary and admin. Changes fields and moves draft ⇄ terbit. Publishing, or editing a published " +
    "announcement, fans it out again, once per version and channel. 400 `unknown_block`; 422 " +
    "`foreign_image`; 409 `conflict` when it changed meanwhile. Optional If-Match (412 " +
    "`precondition_failed`). Audited.",
  request: {
    params: IdParam,
    body: { content: { "application/json": { schema: UpdatePengumumanInput } } },
  },
  responses: { 200: json(Pengumuman), ...problems(400, 401, 403, 404, 409, 422) },
};

export class UpdatePengumuman extends Endpoint {
  override schema = schema;

  override async handle(c: Context<RouteEnv>) {
    const { params, body } = await this.getValidatedData<typeof this.schema>();
    return c.json(await updatePengumuman({ ctx: tenantCtx(c), id: params.id, input: body }));
  }
}
