import type { Context } from "hono";
import type { HonoEnv } from "../../../core/env";
import { tenantCtx } from "../../../core/http/access";
import { Endpoint } from "../../../core/http/endpoint";
import { json, problems } from "../../../core/http/openapi";
import { createCampaign } from "../kampanye";
import { CampaignDetail, CampaignInput } from "../schemas";

export class CreateCampaign extends Endpoint {
  override schema = {
    tags: ["Kampanye"],
    summary: "Open a fundraising campaign",
    request: { body: { content: { "application/json": { schema: CampaignInput } } } },
    responses: { 201: json(CampaignDetail), ...problems(400, 401, 403, 404) },
  };

  override async handle(c: Context<HonoEnv>) {
    const { body } = await this.getValidatedData<typeof this.schema>();
    return c.json(await createCampaign({ ctx: tenantCtx(c), input: body }), 201);
  }
}
