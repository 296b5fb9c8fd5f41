import type { Context } from "hono";
import type { HonoEnv } from "../../../core/env";
import { tenantCtx } from "../../../core/http/access";
import { Endpoint } from "../../../core/http/endpoint";
import { IdParam, json, problems } from "../../../core/http/openapi";
import { Listing, ModerationInput } from "../schemas";
import { moderateListing } from "../service";

export class ModerateListing extends Endpoint {
  override schema = {
    tags: ["Pasar"],
    summary:
      "Hide or restore a listing with a reason (sekretaris, admin); the seller sees it and gets a push",
    request: { params: IdParam, body: { content: { "application/json": { schema: ModerationInput } } } },
    responses: { 200: json(Listing), ...problems(400, 401, 403, 404, 409) },
  };

  override async handle(c: Context<HonoEnv>) {
    const { params, body } = await this.getValidatedData<typeof this.schema>();
    return c.json(await moderateListing({ ctx: tenantCtx(c), id: params.id, input: body }));
  }
}
