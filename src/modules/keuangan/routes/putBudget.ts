import type { Context } from "hono";
import type { RouteEnv } from "../../../core/env";
import { tenantCtx } from "../../../core/http/access";
import { Endpoint } from "../../../core/http/endpoint";
import { json, problems } from "../../../core/http/openapi";
import { putBudget } from "../anggaran/budget";
import { Budget, BudgetInput, YearParam } from "../schemas";

const schema = {
  tags: ["Anggaran"],
  summary: "Set the year's budget",
  description:
    "Admin only. Replaces every budget line of the year in the path with the lines given (category " +
    "and amount). Optional If-Match with the budget's ETag (412 `precondition_failed`). Audited.",
  request: { params: YearParam, body: { content: { "application/json": { schema: BudgetInput } } } },
  responses: { 200: json(Budget), ...problems(400, 401, 403) },
};

export class PutBudget extends Endpoint {
  override schema = schema;

  override async handle(c: Context<RouteEnv>) {
    const { params, body } = await this.getValidatedData<typeof this.schema>();
    return c.json(await putBudget({ ctx: tenantCtx(c), year: params.tahun, input: body }));
  }
}
