import type { Context } from "hono";
import type { RouteEnv } from "../../../core/env";
import { tenantCtx } from "../../../core/http/access";
import { Endpoint } from "../../../core/http/endpoint";
import { IdParam, json, problems } from "../../../core/http/openapi";
import { Poll, UpdatePollInput } from "../schemas";
import { updatePoll } from "../service";

const schema = {
  tags: ["Musyawarah"],
  summary: "Edit, publish or close a poll",
  description:
    "Staff (bendahara, sekretaris, admin), with `musyawarah` on. Edits a draft, publishes it (draft → aktif: opens the " +
    "tally with the voters eligible now; its options are frozen from then on) or closes it (aktif → " +
    "ditutup, final). 409 `invalid_transition` for closing a draft, editing a published poll, any " +
    "change to a closed one, or a draft published or deleted meanwhile; 400 `invalid_schedule` or " +
    "`invalid_max_choices` as at creation. Optional If-Match (412 `precondition_failed`). Audited.",
  request: { params: IdParam, body: { content: { "application/json": { schema: UpdatePollInput } } } },
  responses: { 200: json(Poll), ...problems(400, 401, 403, 404, 409) },
};

export class UpdatePoll extends Endpoint {
  override schema = schema;

  override async handle(c: Context<RouteEnv>) {
    const { params, body } = await this.getValidatedData<typeof this.schema>();
    return c.json(await updatePoll({ ctx: tenantCtx(c), id: params.id, input: body }));
  }
}
