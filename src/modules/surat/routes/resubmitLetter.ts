import type { Context } from "hono";
import type { RouteEnv } from "../../../core/env";
import { tenantCtx } from "../../../core/http/access";
import { Endpoint } from "../../../core/http/endpoint";
import { IdParam, json, problems } from "../../../core/http/openapi";
import { Letter, ResubmitLetterInput } from "../schemas";
import { resubmitLetter } from "../service";

const schema = {
  tags: ["Surat"],
  summary: "Resubmit a letter after correcting it",
  description:
    "Residents only, for their own letter (another's is 404), with `surat` on. Moves perlu_perbaikan " +
    "→ diajukan with corrected fields, checked as at request (400 `invalid_fields`; 409 " +
    "`registry_record_required`, `person_not_linked`; 404 `household_member_not_found`). 409 " +
    "`invalid_transition` for a letter not sent back for correction.",
  request: { params: IdParam, body: { content: { "application/json": { schema: ResubmitLetterInput } } } },
  responses: { 200: json(Letter), ...problems(400, 401, 403, 404, 409) },
};

export class ResubmitLetter extends Endpoint {
  override schema = schema;

  override async handle(c: Context<RouteEnv>) {
    const { params, body } = await this.getValidatedData<typeof this.schema>();
    return c.json(await resubmitLetter({ ctx: tenantCtx(c), id: params.id, input: body }));
  }
}
