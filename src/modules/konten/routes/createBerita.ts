import type { Context } from "hono";
import type { RouteEnv } from "../../../core/env";
import { tenantCtx } from "../../../core/http/access";
import { Endpoint } from "../../../core/http/endpoint";
import { json, problems } from "../../../core/http/openapi";
import { createBerita } from "../berita";
import { Berita, CreateBeritaInput } from "../schemas";

const schema = {
  tags: ["Berita"],
  summary: "Write a news item",
  description:
    "Secretary and admin. Body in Markdown, rendered to sanitised HTML, with an optional cover (`POST " +
    "/api/files`, purpose `sampul`; 404 for an unknown file). Images in the body must be this " +
    "community's own uploads (422 `foreign_image`). Saved as draft, or published at once (`status: " +
    "terbit`), which pushes it to every member's devices. Audited.",
  request: { body: { content: { "application/json": { schema: CreateBeritaInput } } } },
  // 404 file_not_found: the cover is not a file of this tenant's store.
  responses: { 201: json(Berita, "Created"), ...problems(400, 401, 403, 404, 422) },
};

export class CreateBerita extends Endpoint {
  override schema = schema;

  override async handle(c: Context<RouteEnv>) {
    const { body } = await this.getValidatedData<typeof this.schema>();
    return c.json(await createBerita({ ctx: tenantCtx(c), input: body }), 201);
  }
}
