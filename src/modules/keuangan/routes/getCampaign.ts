import type { Context } from "hono";
import type { RouteEnv } from "../../../core/env";
import { tenantCtx } from "../../../core/http/access";
import { Endpoint } from "../../../core/http/endpoint";
import { IdParam, json, tenantProblems } from "../../../core/http/openapi";
import { getCampaign } from "../kampanye/campaigns";
import { CampaignDetail } from "../schemas";

const schema = {
  tags: ["Kampanye"],
  summary: "Get a campaign with its donations",
  description:
    "Members. The campaign with its progress and donations; the names of anonymous donors are shown " +
    "only to the treasurer and admin. ETag and 304 for If-None-Match.",
  request: { params: IdParam },
  responses: { 200: json(CampaignDetail), ...tenantProblems },
};

export class GetCampaign extends Endpoint {
  override schema = schema;

  override async handle(c: Context<RouteEnv>) {
    const { params } = await this.getValidatedData<typeof this.schema>();
    return c.json(await getCampaign({ ctx: tenantCtx(c), id: params.id }));
  }
}
