import type { Context } from "hono";
import type { RouteEnv } from "../../../core/env";
import { tenantCtx } from "../../../core/http/access";
import { Endpoint } from "../../../core/http/endpoint";
import { IdParam, json, problems } from "../../../core/http/openapi";
import { correctCashEntry } from "../kas/entries";
import { CashEntry, CorrectionInput } from "../schemas";

const schema = {
  tags: ["Kas"],
  summary: "Correct a manual cash-book entry",
  description:
    "The treasurer and admin, with a reason. Writes the reversing entry, linked to the original, so " +
    "the balance is as if the original had not been posted; post the right entry afterwards. Only " +
    "manual entries: 409 `not_correctable` for a correction or an entry posted by a dues payment, " +
    "donation or expense (reverse those at their source), 409 `already_corrected` for an entry " +
    "already corrected. Audited.",
  request: { params: IdParam, body: { content: { "application/json": { schema: CorrectionInput } } } },
  responses: { 201: json(CashEntry), ...problems(400, 401, 403, 404, 409) },
};

export class CorrectCashEntry extends Endpoint {
  override schema = schema;

  override async handle(c: Context<RouteEnv>) {
    const { params, body } = await this.getValidatedData<typeof this.schema>();
    return c.json(await correctCashEntry({ ctx: tenantCtx(c), id: params.id, input: body }), 201);
  }
}
