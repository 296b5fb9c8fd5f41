import type { Context } from "hono";
import type { RouteEnv } from "../../../core/env";
import { tenantCtx } from "../../../core/http/access";
import { Endpoint } from "../../../core/http/endpoint";
import { IdParam, json, problems } from "../../../core/http/openapi";
import { donate } from "../kampanye/donations";
import { Donation, DonationInput } from "../schemas";

const schema = {
  tags: ["Kampanye"],
  summary: "Donate to a campaign",
  description:
    "Residents, the treasurer and admin. A resident pledges a donation (dijanjikan), which the " +
    "treasurer or admin confirms later; the treasurer or admin records cash in hand by naming its " +
    "giver (`donorName`): confirmed and posted to the cash book at once only when the name is not " +
    "the officer's own and the officer's own confirmed cash of the month, this one included, stays " +
    "under the finance settings' approval threshold (`expenseApprovalThreshold`); otherwise it waits " +
    "(dijanjikan) for another officer's confirmation. Without `donorName` an officer's donation is " +
    "their own pledge, which another officer confirms. A donation may be " +
    "anonymous. 409 `campaign_closed` when the campaign is no longer aktif or its deadline has " +
    "passed.",
  request: { params: IdParam, body: { content: { "application/json": { schema: DonationInput } } } },
  responses: { 201: json(Donation), ...problems(400, 401, 403, 404, 409) },
};

export class Donate extends Endpoint {
  override schema = schema;

  override async handle(c: Context<RouteEnv>) {
    const { params, body } = await this.getValidatedData<typeof this.schema>();
    return c.json(await donate({ ctx: tenantCtx(c), id: params.id, input: body }), 201);
  }
}
