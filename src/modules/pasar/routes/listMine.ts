import type { Context } from "hono";
import { ListQuery } from "../../../core/db/paging";
import type { HonoEnv } from "../../../core/env";
import { tenantCtx } from "../../../core/http/access";
import { Endpoint } from "../../../core/http/endpoint";
import { json, listOf, tenantProblems } from "../../../core/http/openapi";
import { Listing } from "../schemas";
import { listMyListings } from "../service";

export class ListMyListings extends Endpoint {
  override schema = {
    tags: ["Pasar"],
    summary: "The caller's own listings, every status, with the moderation reason on hidden ones",
    request: { query: ListQuery },
    responses: { 200: json(listOf(Listing)), ...tenantProblems },
  };

  override async handle(c: Context<HonoEnv>) {
    const { query } = await this.getValidatedData<typeof this.schema>();
    return c.json(await listMyListings({ ctx: tenantCtx(c), input: query }));
  }
}
