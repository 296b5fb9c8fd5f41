import type { Context } from "hono";
import type { RouteEnv } from "../../../core/env";
import { platformCtx } from "../../../core/http/access";
import { Endpoint } from "../../../core/http/endpoint";
import { json, problems } from "../../../core/http/openapi";
import { payGraceDebts } from "../iuran/tanggungan";
import { GraceDebtPayInput, MultiOnlinePayment } from "../schemas";

const schema = {
  tags: ["User"],
  summary: "Pay my moved-out family's debt online in one checkout",
  description:
    "Any signed-in user, for themselves, during the 30-day grace period after their family moved out " +
    "(issue 45): opens ONE payment gateway order for the named open bills settled to that family (one " +
    "gateway fee); asking again for the same bills while it is open hands out the same link; the " +
    "gateway's callback pays every bill once. `tenant` names the community, needed only when the " +
    "caller is in more than one grace period (400 `invalid_input` otherwise). Another family's bill, " +
    "any bill outside a grace period (ended, or never moved out) is 404; 409 `bill_paid` when a bill " +
    "is already paid in full; 503 `payment_gateway_unavailable` when no gateway can be reached.",
  request: { body: { content: { "application/json": { schema: GraceDebtPayInput } } } },
  responses: { 200: json(MultiOnlinePayment), ...problems(400, 401, 404, 409, 503) },
};

export class PayGraceDebts extends Endpoint {
  override schema = schema;

  override async handle(c: Context<RouteEnv>) {
    const { body } = await this.getValidatedData<typeof this.schema>();
    return c.json(await payGraceDebts({ ctx: platformCtx(c), input: body }));
  }
}
