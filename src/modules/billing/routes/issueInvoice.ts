import type { Context } from "hono";
import type { RouteEnv } from "../../../core/env";
import { tenantCtx } from "../../../core/http/access";
import { Endpoint } from "../../../core/http/endpoint";
import { json, problems } from "../../../core/http/openapi";
import { Invoice, IssueInvoiceInput } from "../schemas";
import { issueInvoice } from "../service";

const schema = {
  tags: ["Langganan"],
  summary: "Renew or change the subscription plan",
  description:
    "Community staff (sekretaris, bendahara, admin). Issues an invoice for the chosen plan's monthly " +
    "price × months, with its payment gateway URL; an open invoice is replaced by the new one. The " +
    "subscription is extended when the gateway confirms the payment. 404 for an unknown or retired " +
    "plan; 503 `payment_gateway_unavailable` when no gateway is configured or it cannot be reached.",
  request: { body: { content: { "application/json": { schema: IssueInvoiceInput } } } },
  responses: { 201: json(Invoice, "Issued"), ...problems(400, 401, 403, 404, 503) },
};

export class IssueInvoice extends Endpoint {
  override schema = schema;

  override async handle(c: Context<RouteEnv>) {
    const { body } = await this.getValidatedData<typeof this.schema>();
    return c.json(await issueInvoice({ ctx: tenantCtx(c), input: body }), 201);
  }
}
