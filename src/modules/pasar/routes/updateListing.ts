import type { Context } from "hono";
import type { HonoEnv } from "../../../core/env";
import { tenantCtx } from "../../../core/http/access";
import { Endpoint } from "../../../core/http/endpoint";
import { IdParam, json, problems } from "../../../core/http/openapi";
import { Listing, UpdateListingInput } from "../schemas";
import { updateListing } from "../service";

export class UpdateListing extends Endpoint {
  override schema = {
    tags: ["Pasar"],
    summary: "Edit one's own listing or mark it terjual / aktif (not while the pengurus hide it)",
    request: { params: IdParam, body: { content: { "application/json": { schema: UpdateListingInput } } } },
    responses: { 200: json(Listing), ...problems(400, 401, 403, 404, 409) },
  };

  override async handle(c: Context<HonoEnv>) {
    const { params, body } = await this.getValidatedData<typeof this.schema>();
    return c.json(await updateListing({ ctx: tenantCtx(c), id: params.id, input: body }));
  }
}
