import type { Context } from "hono";
import type { RouteEnv } from "../../../core/env";
import { tenantCtx } from "../../../core/http/access";
import { Endpoint } from "../../../core/http/endpoint";
import { IdParam, tenantProblems } from "../../../core/http/openapi";
import { deleteListing } from "../service";

const schema = {
  tags: ["Pasar"],
  summary: "Delete a listing",
  description:
    "Members, with the marketplace (`pasar`) switched on. The seller deletes their own listing " +
    "(another's is 404) with its photos. Optional If-Match (412 `precondition_failed`).",
  request: { params: IdParam },
  responses: { 204: { description: "Deleted" }, ...tenantProblems },
};

export class DeleteListing extends Endpoint {
  override schema = schema;

  override async handle(c: Context<RouteEnv>) {
    const { params } = await this.getValidatedData<typeof this.schema>();
    await deleteListing({ ctx: tenantCtx(c), id: params.id });
    return c.body(null, 204);
  }
}
