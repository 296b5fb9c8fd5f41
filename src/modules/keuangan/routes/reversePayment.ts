import type { Context } from "hono";
import type { RouteEnv } from "../../../core/env";
import { tenantCtx } from "../../../core/http/access";
import { Endpoint } from "../../../core/http/endpoint";
import { IdParam, json, problems } from "../../../core/http/openapi";
import { reversePayment } from "../iuran/pembatalan";
import { Payment, ReversalInput } from "../schemas";

const schema = {
  tags: ["Iuran"],
  summary: "Reverse a payment recorded by mistake",
  description:
    "The treasurer and admin, with a reason. Marks the payment reversed, recomputes the bill's paid " +
    "amount and status, and posts the opposite cash entry, in one write; the payment itself is never " +
    "deleted. 409 `payment_already_reversed`; 409 `online_payment_not_reversible` for a payment the " +
    "gateway settled. Audited.",
  request: { params: IdParam, body: { content: { "application/json": { schema: ReversalInput } } } },
  responses: { 200: json(Payment, "Reversed"), ...problems(400, 401, 403, 404, 409) },
};

export class ReversePayment extends Endpoint {
  override schema = schema;

  override async handle(c: Context<RouteEnv>) {
    const { params, body } = await this.getValidatedData<typeof this.schema>();
    return c.json(await reversePayment({ ctx: tenantCtx(c), id: params.id, input: body }));
  }
}
