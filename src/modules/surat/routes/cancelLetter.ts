import type { Context } from "hono";
import type { RouteEnv } from "../../../core/env";
import { tenantCtx } from "../../../core/http/access";
import { Endpoint } from "../../../core/http/endpoint";
import { IdParam, json, problems } from "../../../core/http/openapi";
import { CancelLetterInput, Letter } from "../schemas";
import { cancelLetter } from "../service";

const schema = {
  tags: ["Surat"],
  summary: "Cancel a letter request",
  description:
    "Residents only, for their own letter (another's is 404), with `surat` on. Moves diajukan, " +
    "diproses or perlu_perbaikan → dibatalkan, with an optional reason; a letter that is selesai, " +
    "ditolak or already dibatalkan answers 409 `invalid_transition`.",
  request: { params: IdParam, body: { content: { "application/json": { schema: CancelLetterInput } } } },
  responses: { 200: json(Letter), ...problems(400, 401, 403, 404, 409) },
};

export class CancelLetter extends Endpoint {
  override schema = schema;

  override async handle(c: Context<RouteEnv>) {
    const { params, body } = await this.getValidatedData<typeof this.schema>();
    return c.json(await cancelLetter({ ctx: tenantCtx(c), id: params.id, input: body }));
  }
}
