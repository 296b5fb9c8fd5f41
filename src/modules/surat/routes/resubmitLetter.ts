import type { Context } from "hono";
import type { HonoEnv } from "../../../core/env";
import { tenantCtx } from "../../../core/http/access";
import { Endpoint } from "../../../core/http/endpoint";
import { IdParam, json, problems } from "../../../core/http/openapi";
import { Letter, ResubmitLetterInput } from "../schemas";
import { resubmitLetter } from "../service";

export class ResubmitLetter extends Endpoint {
  override schema = {
    tags: ["Surat"],
    summary: "Correct and resubmit a letter sent back for correction (perlu_perbaikan → diajukan)",
    request: { params: IdParam, body: { content: { "application/json": { schema: ResubmitLetterInput } } } },
    responses: { 200: json(Letter), ...problems(400, 401, 403, 404, 409) },
  };

  override async handle(c: Context<HonoEnv>) {
    const { params, body } = await this.getValidatedData<typeof this.schema>();
    return c.json(await resubmitLetter({ ctx: tenantCtx(c), id: params.id, input: body }));
  }
}
