import type { Context } from "hono";
import { z } from "zod";
import type { RouteEnv } from "../../core/env";
import { platformCtx } from "../../core/http/access";
import { Endpoint } from "../../core/http/endpoint";
import { json, problems } from "../../core/http/openapi";
import { receiveGatewayCallback } from "./service";
import { PAYMENT_ORDER_STATUSES } from "./tables";
import type { PaymentKindHandler } from "./types";

export const CallbackAnswer = z
  .object({
    received: z.literal(true),
    orderId: z.string(),
    status: z.enum(PAYMENT_ORDER_STATUSES),
  })
  .openapi("PaymentCallbackAnswer");

/** Built per app, so it applies orders with exactly the handlers of the modules mounted. */
export function gatewayCallbackRoute(handlers: readonly PaymentKindHandler[]) {
  const schema = {
    tags: ["Pembayaran"],
    summary: "Receive a payment gateway notification",
    description:
      "Public: the gateway's signature is the credential. Midtrans HTTP notification or Xendit invoice " +
      "callback: verified (401 `invalid_signature`), confirmed with the gateway's status API, and " +
      "applied once to its order (a dues bill or a subscription invoice); a repeated notification " +
      "changes nothing. Every callback is recorded for operators. 404 `payment_order_not_found`; 409 " +
      "`amount_mismatch` when the paid amount differs from the order's; 503 " +
      "`payment_gateway_unavailable` when the gateway cannot be asked.",
    security: [],
    request: {
      body: { content: { "application/json": { schema: z.record(z.string(), z.unknown()) } } },
    },
    responses: { 200: json(CallbackAnswer), ...problems(400, 401, 404, 409, 429, 503) },
  };
  return class GatewayCallback extends Endpoint {
    override schema = schema;

    override async handle(c: Context<RouteEnv>) {
      const { body } = await this.getValidatedData<typeof this.schema>();
      const result = await receiveGatewayCallback(
        platformCtx(c),
        { headers: c.req.raw.headers, raw: JSON.stringify(body), body },
        handlers,
      );
      return c.json({ received: true as const, ...result });
    }
  };
}
