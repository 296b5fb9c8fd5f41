import type { Context } from "hono";
import type { RouteEnv } from "../../../core/env";
import { tenantCtx } from "../../../core/http/access";
import { Endpoint } from "../../../core/http/endpoint";
import { json, problems } from "../../../core/http/openapi";
import { payBillsOnline } from "../iuran/online";
import { MultiOnlinePayment, MultiPayInput } from "../schemas";

const schema = {
  tags: ["Iuran"],
  summary: "Pay several household bills online in one checkout",
  description:
    "Residents only, for open bills of their own household (any other bill, of another household or " +
    "tenant, is 404). Opens ONE payment gateway order for what the bills still owe together, so the " +
    "household pays one gateway fee; asking again for the same bills while that order is open hands " +
    "out the same link. The gateway's callback pays every bill in one write, once however often it " +
    "arrives. 409 `bill_paid` when a bill is already paid in full; 503 `payment_gateway_unavailable` " +
    "when no gateway is configured or it cannot be reached.",
  request: { body: { content: { "application/json": { schema: MultiPayInput } } } },
  responses: { 200: json(MultiOnlinePayment), ...problems(400, 401, 403, 404, 409, 503) },
};

export class PayBillsOnline extends Endpoint {
  override schema = schema;

  override async handle(c: Context<RouteEnv>) {
    const { body } = await this.getValidatedData<typeof this.schema>();
    return c.json(await payBillsOnline({ ctx: tenantCtx(c), input: body }));
  }
}
