import type { Context } from "hono";
import type { HonoEnv } from "../../../core/env";
import { tenantCtx } from "../../../core/http/access";
import { Endpoint } from "../../../core/http/endpoint";
import { IdParam, json, listOf, problems } from "../../../core/http/openapi";
import { createBerita, deleteBerita, getBerita, listBerita, updateBerita } from "../berita";
import { Berita, BeritaListQuery, CreateBeritaInput, UpdateBeritaInput } from "../schemas";

export class ListBerita extends Endpoint {
  override schema = {
    tags: ["Berita"],
    summary: "News, newest first (residents see published news; staff may filter by status)",
    request: { query: BeritaListQuery },
    responses: { 200: json(listOf(Berita)), ...problems(400, 401, 403) },
  };

  override async handle(c: Context<HonoEnv>) {
    const { query } = await this.getValidatedData<typeof this.schema>();
    return c.json(await listBerita({ ctx: tenantCtx(c), input: query }));
  }
}

export class CreateBerita extends Endpoint {
  override schema = {
    tags: ["Berita"],
    summary:
      "Write news (Markdown, rendered to sanitised HTML); published news is pushed to every member's devices",
    request: { body: { content: { "application/json": { schema: CreateBeritaInput } } } },
    // 404 file_not_found: the cover is not a file of this tenant's store.
    responses: { 201: json(Berita, "Created"), ...problems(400, 401, 403, 404) },
  };

  override async handle(c: Context<HonoEnv>) {
    const { body } = await this.getValidatedData<typeof this.schema>();
    return c.json(await createBerita({ ctx: tenantCtx(c), input: body }), 201);
  }
}

export class GetBerita extends Endpoint {
  override schema = {
    tags: ["Berita"],
    summary: "One item",
    request: { params: IdParam },
    responses: { 200: json(Berita), ...problems(400, 401, 403, 404) },
  };

  override async handle(c: Context<HonoEnv>) {
    const { params } = await this.getValidatedData<typeof this.schema>();
    return c.json(await getBerita({ ctx: tenantCtx(c), id: params.id }));
  }
}

export class UpdateBerita extends Endpoint {
  override schema = {
    tags: ["Berita"],
    summary: "Change fields; publishing, or editing published news, pushes it again (once per version)",
    request: { params: IdParam, body: { content: { "application/json": { schema: UpdateBeritaInput } } } },
    responses: { 200: json(Berita), ...problems(400, 401, 403, 404, 409) },
  };

  override async handle(c: Context<HonoEnv>) {
    const { params, body } = await this.getValidatedData<typeof this.schema>();
    return c.json(await updateBerita({ ctx: tenantCtx(c), id: params.id, input: body }));
  }
}

export class DeleteBerita extends Endpoint {
  override schema = {
    tags: ["Berita"],
    summary: "Delete",
    request: { params: IdParam },
    responses: { 204: { description: "Deleted" }, ...problems(400, 401, 403, 404) },
  };

  override async handle(c: Context<HonoEnv>) {
    const { params } = await this.getValidatedData<typeof this.schema>();
    await deleteBerita({ ctx: tenantCtx(c), id: params.id });
    return c.body(null, 204);
  }
}
