import type { Context } from "hono";
import type { RouteEnv } from "../../../core/env";
import { platformCtx } from "../../../core/http/access";
import { Endpoint } from "../../../core/http/endpoint";
import { json, problems } from "../../../core/http/openapi";
import { Invoice, InvoiceParams, VoidInvoiceInput } from "../schemas";
import { voidInvoice } from "../service";

const schema = {
  tags: ["Platform"],
  summary: "Void a community's unpaid invoice",
  description:
    "Platform operators only. Voids an unpaid invoice with a reason; a payment the gateway still " +
    "settles for it afterwards is refused. 409 `invoice_paid` for a paid invoice, 409 " +
    "`invoice_already_void` for one already void. Audited.",
  request: {
    params: InvoiceParams,
    body: { content: { "application/json": { schema: VoidInvoiceInput } } },
  },
  responses: { 200: json(Invoice, "Voided"), ...problems(400, 401, 403, 404, 409) },
};

export class VoidOperatorInvoice extends Endpoint {
  override schema = schema;

  override async handle(c: Context<RouteEnv>) {
    const { params, body } = await this.getValidatedData<typeof this.schema>();
    return c.json(
      await voidInvoice({ ctx: platformCtx(c), id: params.id, invoiceId: params.invoiceId, input: body }),
    );
  }
}
