import type { Context } from "hono";
import type { HonoEnv } from "../../../core/env";
import { tenantCtx } from "../../../core/http/access";
import { Endpoint } from "../../../core/http/endpoint";
import { IdParam, json, problems } from "../../../core/http/openapi";
import { correctCashEntry } from "../kas";
import { CashEntry, CorrectionInput } from "../schemas";

export class CorrectCashEntry extends Endpoint {
  override schema = {
    tags: ["Kas"],
    summary: "Correct a manual entry: writes the reversing entry, linked to the original",
    request: { params: IdParam, body: { content: { "application/json": { schema: CorrectionInput } } } },
    responses: { 201: json(CashEntry), ...problems(400, 401, 403, 404, 409) },
  };

  override async handle(c: Context<HonoEnv>) {
    const { params, body } = await this.getValidatedData<typeof this.schema>();
    return c.json(await correctCashEntry({ ctx: tenantCtx(c), id: params.id, input: body }), 201);
  }
}
