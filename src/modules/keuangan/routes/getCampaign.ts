import type { Context } from "hono";
import type { HonoEnv } from "../../../core/env";
import { tenantCtx } from "../../../core/http/access";
import { Endpoint } from "../../../core/http/endpoint";
import { IdParam, json, tenantProblems } from "../../../core/http/openapi";
import { getCampaign } from "../kampanye";
import { CampaignDetail } from "../schemas";

export class GetCampaign extends Endpoint {
  override schema = {
    tags: ["Kampanye"],
    summary: "A campaign with its progress and donations (anonymous donors hidden except to finance)",
    request: { params: IdParam },
    responses: { 200: json(CampaignDetail), ...tenantProblems },
  };

  override async handle(c: Context<HonoEnv>) {
    const { params } = await this.getValidatedData<typeof this.schema>();
    return c.json(await getCampaign({ ctx: tenantCtx(c), id: params.id }));
  }
}
