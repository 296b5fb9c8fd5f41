import type { Context } from "hono";
import type { RouteEnv } from "../../../core/env";
import { tenantCtx } from "../../../core/http/access";
import { Endpoint } from "../../../core/http/endpoint";
import { json, listOf, problems } from "../../../core/http/openapi";
import { listBerita } from "../berita";
import { Berita, BeritaListQuery } from "../schemas";

const schema = {
  tags: ["Berita"],
  summary: "List news",
  description:
    "Members. News items, newest first: residents and other members see published (terbit) items " +
    "only; the secretary and admin may filter by `status` (draft, terbit). Paged by `cursor`.",
  request: { query: BeritaListQuery },
  responses: { 200: json(listOf(Berita)), ...problems(400, 401, 403) },
};

export class ListBerita extends Endpoint {
  override schema = schema;

  override async handle(c: Context<RouteEnv>) {
    const { query } = await this.getValidatedData<typeof this.schema>();
    return c.json(await listBerita({ ctx: tenantCtx(c), input: query }));
  }
}
