import type { Context } from "hono";
import type { HonoEnv } from "../../../core/env";
import { platformCtx } from "../../../core/http/access";
import { Endpoint } from "../../../core/http/endpoint";
import { IdParam, json, problems } from "../../../core/http/openapi";
import {
  Invoice,
  InvoiceList,
  InvoiceListQuery,
  InvoiceParams,
  OperatorInvoiceInput,
  VoidInvoiceInput,
} from "../schemas";
import { issueOperatorInvoice, listOperatorInvoices, voidInvoice } from "../service";

export class IssueOperatorInvoice extends Endpoint {
  override schema = {
    tags: ["Platform"],
    summary: "Issue an invoice to a community: any amount, a note, the days to pay",
    request: {
      params: IdParam,
      body: { content: { "application/json": { schema: OperatorInvoiceInput } } },
    },
    responses: { 201: json(Invoice, "Issued"), ...problems(400, 401, 403, 404, 503) },
  };

  override async handle(c: Context<HonoEnv>) {
    const { params, body } = await this.getValidatedData<typeof this.schema>();
    return c.json(await issueOperatorInvoice({ ctx: platformCtx(c), id: params.id, input: body }), 201);
  }
}

export class ListOperatorInvoices extends Endpoint {
  override schema = {
    tags: ["Platform"],
    summary: "A community's subscription invoices, newest first, with the subscription's state",
    request: { params: IdParam, query: InvoiceListQuery },
    responses: { 200: json(InvoiceList), ...problems(400, 401, 403, 404) },
  };

  override async handle(c: Context<HonoEnv>) {
    const { params, query } = await this.getValidatedData<typeof this.schema>();
    return c.json(await listOperatorInvoices({ ctx: platformCtx(c), id: params.id, input: query }));
  }
}

export class VoidOperatorInvoice extends Endpoint {
  override schema = {
    tags: ["Platform"],
    summary:
      "Void a community's unpaid invoice with a reason; a payment the gateway still settles for it is refused",
    request: {
      params: InvoiceParams,
      body: { content: { "application/json": { schema: VoidInvoiceInput } } },
    },
    responses: { 200: json(Invoice, "Voided"), ...problems(400, 401, 403, 404, 409) },
  };

  override async handle(c: Context<HonoEnv>) {
    const { params, body } = await this.getValidatedData<typeof this.schema>();
    return c.json(
      await voidInvoice({ ctx: platformCtx(c), id: params.id, invoiceId: params.invoiceId, input: body }),
    );
  }
}
