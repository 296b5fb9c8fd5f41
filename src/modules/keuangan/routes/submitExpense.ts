import type { Context } from "hono";
import type { HonoEnv } from "../../../core/env";
import { tenantCtx } from "../../../core/http/access";
import { Endpoint } from "../../../core/http/endpoint";
import { json, problems } from "../../../core/http/openapi";
import { submitExpense } from "../pengeluaran";
import { Expense, ExpenseInput } from "../schemas";

export class SubmitExpense extends Endpoint {
  override schema = {
    tags: ["Pengeluaran"],
    summary: "Submit an expense; under the tenant's threshold it is approved and posted at once",
    request: { body: { content: { "application/json": { schema: ExpenseInput } } } },
    responses: { 201: json(Expense), ...problems(400, 401, 403, 404) },
  };

  override async handle(c: Context<HonoEnv>) {
    const { body } = await this.getValidatedData<typeof this.schema>();
    return c.json(await submitExpense({ ctx: tenantCtx(c), input: body }), 201);
  }
}
