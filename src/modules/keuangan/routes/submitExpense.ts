import type { Context } from "hono";
import type { RouteEnv } from "../../../core/env";
import { tenantCtx } from "../../../core/http/access";
import { Endpoint } from "../../../core/http/endpoint";
import { json, problems } from "../../../core/http/openapi";
import { submitExpense } from "../kas/pengeluaran";
import { Expense, ExpenseInput } from "../schemas";

const schema = {
  tags: ["Pengeluaran"],
  summary: "Submit an expense",
  description:
    "The treasurer and admin. Submits an expense with its category, amount, date (not in the future: " +
    "400 `invalid_date`) and an optional receipt (purpose `nota`). While what the officer approved of " +
    "their own submissions this month stays under the community's threshold, it is approved and " +
    "posted to the cash book at once (disetujui); otherwise it waits as diajukan for another " +
    "officer's decision. Audited.",
  request: { body: { content: { "application/json": { schema: ExpenseInput } } } },
  responses: { 201: json(Expense), ...problems(400, 401, 403, 404) },
};

export class SubmitExpense extends Endpoint {
  override schema = schema;

  override async handle(c: Context<RouteEnv>) {
    const { body } = await this.getValidatedData<typeof this.schema>();
    return c.json(await submitExpense({ ctx: tenantCtx(c), input: body }), 201);
  }
}
