import type { Context } from "hono";
import type { RouteEnv } from "../../../core/env";
import { tenantCtx } from "../../../core/http/access";
import { Endpoint } from "../../../core/http/endpoint";
import { IdParam, json, problems } from "../../../core/http/openapi";
import { payOnline } from "../iuran/online";
import { OnlinePayment } from "../schemas";

const schema = {
  tags: ["Iuran"],
  summary: "Pay a household bill online",
  description:
    "Residents only, for a bill of their own household (another household's bill is 404). Opens a " +
    "payment gateway order for what is outstanding and answers its checkout URL; asking again while " +
    "an order for the same amount is open hands out the same link. The bill is paid when the " +
    "gateway's callback confirms it. 409 `bill_paid` for a bill paid in full; 503 " +
    "`payment_gateway_unavailable` when no gateway is configured or it cannot be reached.",
  request: { params: IdParam },
  responses: { 200: json(OnlinePayment), ...problems(401, 403, 404, 409, 503) },
};

export class PayOnline extends Endpoint {
  override schema = schema;

  override async handle(c: Context<RouteEnv>) {
    const { params } = await this.getValidatedData<typeof this.schema>();
    return c.json(await payOnline({ ctx: tenantCtx(c), id: params.id }));
  }
}
