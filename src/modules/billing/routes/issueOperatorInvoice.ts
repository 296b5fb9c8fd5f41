import type { Context } from "hono";
import type { RouteEnv } from "../../../core/env";
import { platformCtx } from "../../../core/http/access";
import { Endpoint } from "../../../core/http/endpoint";
import { IdParam, json, problems } from "../../../core/http/openapi";
import { Invoice, OperatorInvoiceInput } from "../schemas";
import { issueOperatorInvoice } from "../service";

const schema = {
  tags: ["Platform"],
  summary: "Issue an invoice to a community",
  description:
    "Platform operators only. Issues an invoice of any amount with a note and the days to pay, with " +
    "its payment gateway URL; paying it extends the subscription like a plan invoice. 404 for an " +
    "unknown tenant; 503 `payment_gateway_unavailable`. Audited.",
  request: {
    params: IdParam,
    body: { content: { "application/json": { schema: OperatorInvoiceInput } } },
  },
  responses: { 201: json(Invoice, "Issued"), ...problems(400, 401, 403, 404, 503) },
};

export class IssueOperatorInvoice extends Endpoint {
  override schema = schema;

  override async handle(c: Context<RouteEnv>) {
    const { params, body } = await this.getValidatedData<typeof this.schema>();
    return c.json(await issueOperatorInvoice({ ctx: platformCtx(c), id: params.id, input: body }), 201);
  }
}
