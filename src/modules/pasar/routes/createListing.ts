import type { Context } from "hono";
import type { HonoEnv } from "../../../core/env";
import { tenantCtx } from "../../../core/http/access";
import { Endpoint } from "../../../core/http/endpoint";
import { json, problems } from "../../../core/http/openapi";
import { CreateListingInput, Listing } from "../schemas";
import { createListing } from "../service";

export class CreateListing extends Endpoint {
  override schema = {
    tags: ["Pasar"],
    summary: "List goods or a service (needs a WhatsApp number on the profile); photos from POST /api/files",
    request: { body: { content: { "application/json": { schema: CreateListingInput } } } },
    responses: { 201: json(Listing, "Created"), ...problems(400, 401, 403, 404, 409, 429) },
  };

  override async handle(c: Context<HonoEnv>) {
    const { body } = await this.getValidatedData<typeof this.schema>();
    return c.json(await createListing({ ctx: tenantCtx(c), input: body }), 201);
  }
}
