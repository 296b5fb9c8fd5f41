import type { Context } from "hono";
import type { RouteEnv } from "../../../core/env";
import { tenantCtx } from "../../../core/http/access";
import { Endpoint } from "../../../core/http/endpoint";
import { IdParam, json, problems } from "../../../core/http/openapi";
import { Listing, UpdateListingInput } from "../schemas";
import { updateListing } from "../service";

const schema = {
  tags: ["Pasar"],
  summary: "Edit a listing or mark it sold",
  description:
    "Members, with the marketplace (`pasar`) switched on. The seller edits their own listing " +
    "(another's is 404) or moves it aktif ⇄ terjual. A listing the secretary or admin hid cannot be " +
    "changed by its seller: 409 `listing_hidden`. 409 `file_in_use` for a photo on another listing. " +
    "Optional If-Match (412 `precondition_failed`).",
  request: { params: IdParam, body: { content: { "application/json": { schema: UpdateListingInput } } } },
  responses: { 200: json(Listing), ...problems(400, 401, 403, 404, 409) },
};

export class UpdateListing extends Endpoint {
  override schema = schema;

  override async handle(c: Context<RouteEnv>) {
    const { params, body } = await this.getValidatedData<typeof this.schema>();
    return c.json(await updateListing({ ctx: tenantCtx(c), id: params.id, input: body }));
  }
}
