import type { Context } from "hono";
import type { RouteEnv } from "../../../core/env";
import { tenantCtx } from "../../../core/http/access";
import { Endpoint } from "../../../core/http/endpoint";
import { IdParam, json, tenantProblems } from "../../../core/http/openapi";
import { Listing } from "../schemas";
import { getListing } from "../service";

const schema = {
  tags: ["Pasar"],
  summary: "Get a listing",
  description:
    "Members, with the marketplace (`pasar`) switched on. One listing with its photos and, while it " +
    "is active, a WhatsApp link to its seller. A hidden listing is seen only by its seller and the " +
    "secretary and admin (404 for others). ETag and 304 for If-None-Match.",
  request: { params: IdParam },
  responses: { 200: json(Listing), ...tenantProblems },
};

export class GetListing extends Endpoint {
  override schema = schema;

  override async handle(c: Context<RouteEnv>) {
    const { params } = await this.getValidatedData<typeof this.schema>();
    return c.json(await getListing({ ctx: tenantCtx(c), id: params.id }));
  }
}
