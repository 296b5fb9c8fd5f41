import type { Context } from "hono";
import type { HonoEnv } from "../../../core/env";
import { tenantCtx } from "../../../core/http/access";
import { Endpoint } from "../../../core/http/endpoint";
import { IdParam, json, problems } from "../../../core/http/openapi";
import { recordPayment } from "../iuran";
import { Payment, PaymentInput } from "../schemas";

export class RecordPayment extends Endpoint {
  override schema = {
    tags: ["Iuran"],
    summary: "Record a payment (partial allowed); posts to the cash book in the same write",
    request: { params: IdParam, body: { content: { "application/json": { schema: PaymentInput } } } },
    responses: { 201: json(Payment), ...problems(400, 401, 403, 404, 409) },
  };

  override async handle(c: Context<HonoEnv>) {
    const { params, body } = await this.getValidatedData<typeof this.schema>();
    return c.json(await recordPayment({ ctx: tenantCtx(c), id: params.id, input: body }), 201);
  }
}
