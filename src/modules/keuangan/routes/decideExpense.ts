import type { Context } from "hono";
import type { RouteEnv } from "../../../core/env";
import { tenantCtx } from "../../../core/http/access";
import { Endpoint } from "../../../core/http/endpoint";
import { IdParam, json, problems } from "../../../core/http/openapi";
import { decideExpense } from "../kas/pengeluaran";
import { Expense, ExpenseDecision } from "../schemas";

const schema = {
  tags: ["Pengeluaran"],
  summary: "Approve or reject a submitted expense",
  description:
    "The treasurer and admin, never the submitter (409 `self_approval`); an expense a treasurer " +
    "submitted is decided by the head only (403 `forbidden_role`). Moves diajukan → disetujui (posted " +
    "to the cash book in the same write) or ditolak (a reason required: 400 `invalid_input`), once: " +
    "409 `invalid_transition` when already decided. Audited.",
  request: { params: IdParam, body: { content: { "application/json": { schema: ExpenseDecision } } } },
  responses: { 200: json(Expense), ...problems(400, 401, 403, 404, 409) },
};

export class DecideExpense extends Endpoint {
  override schema = schema;

  override async handle(c: Context<RouteEnv>) {
    const { params, body } = await this.getValidatedData<typeof this.schema>();
    return c.json(await decideExpense({ ctx: tenantCtx(c), id: params.id, input: body }));
  }
}
