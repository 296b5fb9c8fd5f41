import type { Context } from "hono";
import type { RouteEnv } from "../../../core/env";
import { tenantCtx } from "../../../core/http/access";
import { Endpoint } from "../../../core/http/endpoint";
import { IdParam, json, problems } from "../../../core/http/openapi";
import { Letter, UpdateLetterInput } from "../schemas";
import { updateLetter } from "../workflow";

const schema = {
  tags: ["Surat"],
  summary: "Move a letter or set its number and date",
  description:
    "Staff (bendahara, sekretaris, admin), with `surat` on. Moves diajukan → diproses → selesai (or " +
    "diajukan → selesai in one step), or diajukan/diproses → perlu_perbaikan (the resident corrects and " +
    "resubmits) or ditolak, and sets the number (`nomorSurat`) and date; the resident is told of " +
    "perlu_perbaikan, ditolak and selesai. A reason in `note` is required for ditolak and " +
    "perlu_perbaikan (400 `note_required`). Finishing without a number assigns the next one (what " +
    "next-number suggests; a number sent is used as typed) and without a date dates it today; it needs " +
    "complete letter settings (409 `letter_settings_incomplete`) and the subject's registry record " +
    "(409 `registry_record_required`); it makes the letter verifiable by QR and, when the RT has it on, " +
    "sends it to the linked RW's queue (the resident gets the PDF once the RW acknowledged it or the RT " +
    "issues it without the RW). 409 `letter_number_taken` for a typed number already used, 409 " +
    "`invalid_transition` for any other move (naming the allowed next states in `allowedNext`) or a " +
    "letter changed meanwhile. Optional If-Match (412 `precondition_failed`). Audited.",
  request: { params: IdParam, body: { content: { "application/json": { schema: UpdateLetterInput } } } },
  responses: { 200: json(Letter), ...problems(400, 401, 403, 404, 409) },
};

export class UpdateLetter extends Endpoint {
  override schema = schema;

  override async handle(c: Context<RouteEnv>) {
    const { params, body } = await this.getValidatedData<typeof this.schema>();
    return c.json(await updateLetter({ ctx: tenantCtx(c), id: params.id, input: body }));
  }
}
