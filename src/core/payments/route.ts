import type { Context } from "hono";
import { z } from "zod";
import type { HonoEnv } from "../env";
import { platformCtx } from "../http/access";
import { Endpoint } from "../http/endpoint";
import { json, problems } from "../http/openapi";
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
  return class GatewayCallback extends Endpoint {
    override schema = {
      tags: ["Pembayaran"],
      summary:
        "Payment gateway notification (Midtrans HTTP notification or Xendit invoice callback): verified, " +
        "confirmed with the gateway's status API, applied once",
      security: [],
      request: {
        body: { content: { "application/json": { schema: z.record(z.string(), z.unknown()) } } },
      },
      responses: { 200: json(CallbackAnswer), ...problems(400, 401, 404, 409, 429, 503) },
    };

    override async handle(c: Context<HonoEnv>) {
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
