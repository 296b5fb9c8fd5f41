import type { Context } from "hono";
import type { RouteEnv } from "../../../core/env";
import { tenantCtx } from "../../../core/http/access";
import { Endpoint } from "../../../core/http/endpoint";
import { json, listOf, problems } from "../../../core/http/openapi";
import { listPengumuman } from "../pengumuman";
import { Pengumuman, PengumumanListQuery } from "../schemas";

const schema = {
  tags: ["Pengumuman"],
  summary: "List announcements",
  description:
    "Members. Announcements, newest first: published ones for everyone; the secretary and admin also " +
    "see drafts and may filter by `status`. Paged by `cursor`.",
  request: { query: PengumumanListQuery },
  responses: { 200: json(listOf(Pengumuman)), ...problems(400, 401, 403) },
};

export class ListPengumuman extends Endpoint {
  override schema = schema;

  override async handle(c: Context<RouteEnv>) {
    const { query } = await this.getValidatedData<typeof this.schema>();
    return c.json(await listPengumuman({ ctx: tenantCtx(c), input: query }));
  }
}
