import type { Context } from "hono";
import type { RouteEnv } from "../../../core/env";
import { tenantCtx } from "../../../core/http/access";
import { Endpoint } from "../../../core/http/endpoint";
import { json, tenantProblems } from "../../../core/http/openapi";
import { listCash } from "../kas/entries";
import { CashBook, CashListQuery } from "../schemas";

const schema = {
  tags: ["Kas"],
  summary: "List cash-book entries",
  description:
    "Community staff (sekretaris, bendahara, admin). Cash-book entries in date order with the running " +
    "balance, and the range's opening and closing balances, filtered by date range (400 " +
    "`invalid_range` when `from` is after `to`), paged by `cursor`.",
  request: { query: CashListQuery },
  responses: { 200: json(CashBook), ...tenantProblems },
};

export class ListCash extends Endpoint {
  override schema = schema;

  override async handle(c: Context<RouteEnv>) {
    const { query } = await this.getValidatedData<typeof this.schema>();
    return c.json(await listCash({ ctx: tenantCtx(c), input: query }));
  }
}
