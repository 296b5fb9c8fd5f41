import type { Context } from "hono";
import type { RouteEnv } from "../../../core/env";
import { tenantCtx } from "../../../core/http/access";
import { Endpoint } from "../../../core/http/endpoint";
import { json, tenantProblems } from "../../../core/http/openapi";
import { getBudget } from "../anggaran/budget";
import { Budget, BudgetQuery } from "../schemas";

const schema = {
  tags: ["Anggaran"],
  summary: "Get the year's budget",
  description:
    "Community staff (sekretaris, bendahara, admin). The budget lines of the year `tahun` per " +
    "category, each with its realisation from the cash book and the percentage used. ETag and 304 for " +
    "If-None-Match.",
  request: { query: BudgetQuery },
  responses: { 200: json(Budget), ...tenantProblems },
};

export class GetBudget extends Endpoint {
  override schema = schema;

  override async handle(c: Context<RouteEnv>) {
    const { query } = await this.getValidatedData<typeof this.schema>();
    return c.json(await getBudget({ ctx: tenantCtx(c), year: query.tahun }));
  }
}
