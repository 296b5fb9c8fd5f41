import type { Context } from "hono";
import type { RouteEnv } from "../../../core/env";
import { tenantCtx } from "../../../core/http/access";
import { Endpoint } from "../../../core/http/endpoint";
import { json, listOf, tenantProblems } from "../../../core/http/openapi";
import { listExpenses } from "../kas/pengeluaran";
import { Expense, ExpenseListQuery } from "../schemas";

const schema = {
  tags: ["Pengeluaran"],
  summary: "List expenses",
  description:
    "Community staff (sekretaris, bendahara, admin). Expenses, newest first, filtered by status " +
    "(diajukan, disetujui, ditolak), paged by `cursor`.",
  request: { query: ExpenseListQuery },
  responses: { 200: json(listOf(Expense)), ...tenantProblems },
};

export class ListExpenses extends Endpoint {
  override schema = schema;

  override async handle(c: Context<RouteEnv>) {
    const { query } = await this.getValidatedData<typeof this.schema>();
    return c.json(await listExpenses({ ctx: tenantCtx(c), input: query }));
  }
}
