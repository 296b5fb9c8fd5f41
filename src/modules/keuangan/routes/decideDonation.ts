import type { Context } from "hono";
import type { RouteEnv } from "../../../core/env";
import { tenantCtx } from "../../../core/http/access";
import { Endpoint } from "../../../core/http/endpoint";
import { json, problems } from "../../../core/http/openapi";
import { decideDonation } from "../kampanye/donations";
import { Donation, DonationDecision, DonationParams } from "../schemas";

const schema = {
  tags: ["Kampanye"],
  summary: "Confirm or reject a pledged donation",
  description:
    "The treasurer and admin, never for their own donation nor for cash they recorded themselves " +
    "(409 `self_confirmation`). Moves " +
    "dijanjikan → dikonfirmasi (posted to the cash book in the same write) or ditolak, once: 409 " +
    "`invalid_transition` when already decided. Audited.",
  request: {
    params: DonationParams,
    body: { content: { "application/json": { schema: DonationDecision } } },
  },
  responses: { 200: json(Donation), ...problems(400, 401, 403, 404, 409) },
};

export class DecideDonation extends Endpoint {
  override schema = schema;

  override async handle(c: Context<RouteEnv>) {
    const { params, body } = await this.getValidatedData<typeof this.schema>();
    return c.json(
      await decideDonation({
        ctx: tenantCtx(c),
        id: params.id,
        donationId: params.donationId,
        status: body.status,
      }),
    );
  }
}
