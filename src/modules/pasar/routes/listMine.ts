import type { Context } from "hono";
import { ListQuery } from "../../../core/db/paging";
import type { RouteEnv } from "../../../core/env";
import { tenantCtx } from "../../../core/http/access";
import { Endpoint } from "../../../core/http/endpoint";
import { json, listOf, tenantProblems } from "../../../core/http/openapi";
import { Listing } from "../schemas";
import { listMyListings } from "../service";

const schema = {
  tags: ["Pasar"],
  summary: "List the caller's own listings",
  description:
    "Members, with the marketplace (`pasar`) switched on. The caller's listings in every status " +
    "(aktif, terjual, disembunyikan), newest first, with the moderation reason on hidden ones, paged " +
    "by `cursor`.",
  request: { query: ListQuery },
  responses: { 200: json(listOf(Listing)), ...tenantProblems },
};

export class ListMyListings extends Endpoint {
  override schema = schema;

  override async handle(c: Context<RouteEnv>) {
    const { query } = await this.getValidatedData<typeof this.schema>();
    return c.json(await listMyListings({ ctx: tenantCtx(c), input: query }));
  }
}
