import type { Context } from "hono";
import type { RouteEnv } from "../../../core/env";
import { tenantCtx } from "../../../core/http/access";
import { Endpoint } from "../../../core/http/endpoint";
import { IdParam, json, problems } from "../../../core/http/openapi";
import { Listing, ModerationInput } from "../schemas";
import { moderateListing } from "../service";

const schema = {
  tags: ["Pasar"],
  summary: "Hide or restore a listing",
  description:
    "Secretary and admin, with `pasar` on. Hides a listing (→ disembunyikan) or restores it (→ aktif) " +
    "with a reason; the seller sees the reason on the listing and gets a push. 409 " +
    "`invalid_transition` when the listing is already in that state or changed meanwhile. Audited.",
  request: { params: IdParam, body: { content: { "application/json": { schema: ModerationInput } } } },
  responses: { 200: json(Listing), ...problems(400, 401, 403, 404, 409) },
};

export class ModerateListing extends Endpoint {
  override schema = schema;

  override async handle(c: Context<RouteEnv>) {
    const { params, body } = await this.getValidatedData<typeof this.schema>();
    return c.json(await moderateListing({ ctx: tenantCtx(c), id: params.id, input: body }));
  }
}
