import type { Context } from "hono";
import type { RouteEnv } from "../../../core/env";
import { tenantCtx } from "../../../core/http/access";
import { Endpoint } from "../../../core/http/endpoint";
import { json, listOf, tenantProblems } from "../../../core/http/openapi";
import { Listing, ListingListQuery } from "../schemas";
import { listListings } from "../service";

const schema = {
  tags: ["Pasar"],
  summary: "List marketplace listings",
  description:
    "Members, with the marketplace (`pasar`) switched on. Active listings, newest first, searched in " +
    "title and description (`q`) and filtered by category, paged by `cursor`. Only the secretary and " +
    "admin may ask for another `status` (hidden listings): 403 `forbidden_role` for anyone else.",
  request: { query: ListingListQuery },
  responses: { 200: json(listOf(Listing)), ...tenantProblems },
};

export class ListListings extends Endpoint {
  override schema = schema;

  override async handle(c: Context<RouteEnv>) {
    const { query } = await this.getValidatedData<typeof this.schema>();
    return c.json(await listListings({ ctx: tenantCtx(c), input: query }));
  }
}
