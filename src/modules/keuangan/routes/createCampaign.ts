import type { Context } from "hono";
import type { RouteEnv } from "../../../core/env";
import { tenantCtx } from "../../../core/http/access";
import { Endpoint } from "../../../core/http/endpoint";
import { json, problems } from "../../../core/http/openapi";
import { createCampaign } from "../kampanye/campaigns";
import { CampaignDetail, CampaignInput } from "../schemas";

const schema = {
  tags: ["Kampanye"],
  summary: "Open a fundraising campaign",
  description:
    "Community staff (sekretaris, bendahara, admin). Opens a campaign with a title, description, " +
    "target amount, deadline (400 `invalid_date` for one in the past) and an optional cover image; it " +
    "starts as aktif and takes donations until its deadline or until it is closed. Audited.",
  request: { body: { content: { "application/json": { schema: CampaignInput } } } },
  responses: { 201: json(CampaignDetail), ...problems(400, 401, 403, 404) },
};

export class CreateCampaign extends Endpoint {
  override schema = schema;

  override async handle(c: Context<RouteEnv>) {
    const { body } = await this.getValidatedData<typeof this.schema>();
    return c.json(await createCampaign({ ctx: tenantCtx(c), input: body }), 201);
  }
}
