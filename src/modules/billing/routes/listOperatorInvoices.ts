import type { Context } from "hono";
import type { RouteEnv } from "../../../core/env";
import { platformCtx } from "../../../core/http/access";
import { Endpoint } from "../../../core/http/endpoint";
import { IdParam, json, problems } from "../../../core/http/openapi";
import { InvoiceList, InvoiceListQuery } from "../schemas";
import { listOperatorInvoices } from "../service";

const schema = {
  tags: ["Platform"],
  summary: "List a community's subscription invoices",
  description:
    "Platform operators only. A community's invoices, newest first, with their status and the " +
    "subscription's state, paged by `cursor`.",
  request: { params: IdParam, query: InvoiceListQuery },
  responses: { 200: json(InvoiceList), ...problems(400, 401, 403, 404) },
};

export class ListOperatorInvoices extends Endpoint {
  override schema = schema;

  override async handle(c: Context<RouteEnv>) {
    const { params, query } = await this.getValidatedData<typeof this.schema>();
    return c.json(await listOperatorInvoices({ ctx: platformCtx(c), id: params.id, input: query }));
  }
}
