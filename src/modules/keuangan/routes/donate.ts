import type { Context } from "hono";
import type { HonoEnv } from "../../../core/env";
import { tenantCtx } from "../../../core/http/access";
import { Endpoint } from "../../../core/http/endpoint";
import { IdParam, json, problems } from "../../../core/http/openapi";
import { donate } from "../kampanye";
import { Donation, DonationInput } from "../schemas";

export class Donate extends Endpoint {
  override schema = {
    tags: ["Kampanye"],
    summary:
      "Pledge a donation (resident) or record a cash donation (treasurer: confirmed and posted at once)",
    request: { params: IdParam, body: { content: { "application/json": { schema: DonationInput } } } },
    responses: { 201: json(Donation), ...problems(400, 401, 403, 404, 409) },
  };

  override async handle(c: Context<HonoEnv>) {
    const { params, body } = await this.getValidatedData<typeof this.schema>();
    return c.json(await donate({ ctx: tenantCtx(c), id: params.id, input: body }), 201);
  }
}
