import type { Context } from "hono";
import type { RouteEnv } from "../../../core/env";
import { tenantCtx } from "../../../core/http/access";
import { Endpoint } from "../../../core/http/endpoint";
import { json, tenantProblems } from "../../../core/http/openapi";
import { arrearsPage } from "../iuran/arrears";
import { Arrears, ArrearsQuery } from "../schemas";

const schema = {
  tags: ["Iuran"],
  summary: "Get arrears per unit",
  description:
    "Community staff (sekretaris, bendahara, admin). Units in arrears, a page at a time ordered by " +
    "amount owed (descending): owed, the oldest unpaid period and aging buckets, with totals over " +
    "every unit; paged by `cursor` (400 `invalid_cursor` for one this list did not issue).",
  request: { query: ArrearsQuery },
  responses: { 200: json(Arrears), ...tenantProblems },
};

export class GetArrears extends Endpoint {
  override schema = schema;

  override async handle(c: Context<RouteEnv>) {
    const { query } = await this.getValidatedData<typeof this.schema>();
    return c.json(await arrearsPage({ ctx: tenantCtx(c), input: query }));
  }
}
