import type { Context } from "hono";
import type { RouteEnv } from "../../../core/env";
import { tenantCtx } from "../../../core/http/access";
import { Endpoint } from "../../../core/http/endpoint";
import { json, listOf, tenantProblems } from "../../../core/http/openapi";
import { listCampaigns } from "../kampanye/campaigns";
import { Campaign, CampaignListQuery } from "../schemas";

const schema = {
  tags: ["Kampanye"],
  summary: "List fundraising campaigns",
  description:
    "Members. Campaigns filtered by status (aktif, selesai, dibatalkan), each with its progress: " +
    "confirmed total, percentage of the target and number of donors; paged by `cursor`.",
  request: { query: CampaignListQuery },
  responses: { 200: json(listOf(Campaign)), ...tenantProblems },
};

export class ListCampaigns extends Endpoint {
  override schema = schema;

  override async handle(c: Context<RouteEnv>) {
    const { query } = await this.getValidatedData<typeof this.schema>();
    return c.json(await listCampaigns({ ctx: tenantCtx(c), input: query }));
  }
}
