import type { Context } from "hono";
import type { RouteEnv } from "../../../core/env";
import { tenantCtx } from "../../../core/http/access";
import { Endpoint } from "../../../core/http/endpoint";
import { json, problems } from "../../../core/http/openapi";
import { CreateListingInput, Listing } from "../schemas";
import { createListing } from "../service";

const schema = {
  tags: ["Pasar"],
  summary: "List goods or a service",
  description:
    "Members, with the marketplace (`pasar`) switched on. Creates an active listing with title, " +
    "description, category, price (rupiah, or `nego`) and up to 5 photos (`photoIds`, the caller's " +
    "uploads from `POST /api/files`). Buyers reach the seller by WhatsApp, so the profile needs a " +
    "WhatsApp number: 409 `no_contact` otherwise. 409 `file_in_use` when a photo is already on " +
    "another listing. At most 20 listings per member per day (429 `rate_limited`).",
  request: { body: { content: { "application/json": { schema: CreateListingInput } } } },
  responses: { 201: json(Listing, "Created"), ...problems(400, 401, 403, 404, 409, 429) },
};

export class CreateListing extends Endpoint {
  override schema = schema;

  override async handle(c: Context<RouteEnv>) {
    const { body } = await this.getValidatedData<typeof this.schema>();
    return c.json(await createListing({ ctx: tenantCtx(c), input: body }), 201);
  }
}
