import type { Context } from "hono";
import type { HonoEnv } from "../../../core/env";
import { tenantCtx } from "../../../core/http/access";
import { Endpoint } from "../../../core/http/endpoint";
import { IdParam, json, problems } from "../../../core/http/openapi";
import { Letter, UpdateLetterInput } from "../schemas";
import { updateLetter } from "../workflow";

export class UpdateLetter extends Endpoint {
  override schema = {
    tags: ["Surat"],
    summary: "Move a letter (diproses, perlu_perbaikan, selesai, ditolak) or set its number and date",
    request: { params: IdParam, body: { content: { "application/json": { schema: UpdateLetterInput } } } },
    responses: { 200: json(Letter), ...problems(400, 401, 403, 404, 409) },
  };

  override async handle(c: Context<HonoEnv>) {
    const { params, body } = await this.getValidatedData<typeof this.schema>();
    return c.json(await updateLetter({ ctx: tenantCtx(c), id: params.id, input: body }));
  }
}
