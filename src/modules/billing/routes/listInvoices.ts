import type { Context } from "hono";
import type { RouteEnv } from "../../../core/env";
import { tenantCtx } from "../../../core/http/access";
import { Endpoint } from "../../../core/http/endpoint";
import { json, tenantProblems } from "../../../core/http/openapi";
import { InvoiceList, InvoiceListQuery } from "../schemas";
import { listInvoices } from "../service";

const schema = {
  tags: ["Langganan"],
  summary: "List the community's subscription invoices",
  description:
    "Community staff (sekretaris, bendahara, admin). This community's invoices, newest first, with " +
    "their status (issued, paid, expired, void), and the subscription's state (plan, active until), " +
    "paged by `cursor`.",
  request: { query: InvoiceListQuery },
  responses: { 200: json(InvoiceList), ...tenantProblems },
};

export class ListInvoices extends Endpoint {
  override schema = schema;

  override async handle(c: Context<RouteEnv>) {
    const { query } = await this.getValidatedData<typeof this.schema>();
    return c.json(await listInvoices({ ctx: tenantCtx(c), input: query }));
  }
}
