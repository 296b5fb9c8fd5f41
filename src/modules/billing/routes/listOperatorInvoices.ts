import type { Context } from "hono";
import type { HonoEnv } from "../../../core/env";
import { platformCtx } from "../../../core/http/access";
import { Endpoint } from "../../../core/http/endpoint";
import { IdParam, json, problems } from "../../../core/http/openapi";
import { InvoiceList, InvoiceListQuery } from "../schemas";
import { listOperatorInvoices } from "../service";

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
