import type { Context } from "hono";
import type { RouteEnv } from "../../../core/env";
import { tenantCtx } from "../../../core/http/access";
import { Endpoint } from "../../../core/http/endpoint";
import { IdParam, json, problems } from "../../../core/http/openapi";
import { recordPayment } from "../iuran/payments";
import { Payment, PaymentInput } from "../schemas";

const schema = {
  tags: ["Iuran"],
  summary: "Record a payment on a bill",
  description:
    "The treasurer and admin. Records a cash or transfer payment, partial allowed; the bill's status " +
    "follows (belum → sebagian → lunas) and the payment is posted to the cash book in the same write. " +
    "409 `bill_paid` for a bill already paid in full, 409 `overpayment` when the amount exceeds what " +
    "is outstanding; 400 `invalid_date` for a date in the future. Audited.",
  request: { params: IdParam, body: { content: { "application/json": { schema: PaymentInput } } } },
  responses: { 201: json(Payment), ...problems(400, 401, 403, 404, 409) },
};

export class RecordPayment extends Endpoint {
  override schema = schema;

  override async handle(c: Context<RouteEnv>) {
    const { params, body } = await this.getValidatedData<typeof this.schema>();
    return c.json(await recordPayment({ ctx: tenantCtx(c), id: params.id, input: body }), 201);
  }
}
