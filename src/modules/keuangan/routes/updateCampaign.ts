import type { Context } from "hono";
import type { RouteEnv } from "../../../core/env";
import { tenantCtx } from "../../../core/http/access";
import { Endpoint } from "../../../core/http/endpoint";
import { IdParam, json, problems } from "../../../core/http/openapi";
import { updateCampaign } from "../kampanye/campaigns";
import { CampaignDetail, CampaignUpdate } from "../schemas";

const schema = {
  tags: ["Kampanye"],
  summary: "Edit, close or cancel a campaign",
  description:
    "Community staff (sekretaris, bendahara, admin). Edits an active campaign, or ends it: aktif → " +
    "selesai or dibatalkan. A campaign that is no longer aktif cannot change: 409 `campaign_closed`. " +
    "Optional If-Match (412 `precondition_failed`). Audited.",
  request: { params: IdParam, body: { content: { "application/json": { schema: CampaignUpdate } } } },
  responses: { 200: json(CampaignDetail), ...problems(400, 401, 403, 404, 409) },
};

export class UpdateCampaign extends Endpoint {
  override schema = schema;

  override async handle(c: Context<RouteEnv>) {
    const { params, body } = await this.getValidatedData<typeof this.schema>();
    return c.json(await updateCampaign({ ctx: tenantCtx(c), id: params.id, input: body }));
  }
}
