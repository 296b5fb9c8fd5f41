import type { Context } from "hono";
import type { HonoEnv } from "../../../core/env";
import { tenantCtx } from "../../../core/http/access";
import { Endpoint } from "../../../core/http/endpoint";
import { IdParam, json, problems } from "../../../core/http/openapi";
import { Poll, UpdatePollInput } from "../schemas";
import { updatePoll } from "../service";

export class UpdatePoll extends Endpoint {
  override schema = {
    tags: ["Musyawarah"],
    summary: "Edit a draft, publish it (draft → aktif) or close it (aktif → ditutup)",
    request: { params: IdParam, body: { content: { "application/json": { schema: UpdatePollInput } } } },
    responses: { 200: json(Poll), ...problems(400, 401, 403, 404, 409) },
  };

  override async handle(c: Context<HonoEnv>) {
    const { params, body } = await this.getValidatedData<typeof this.schema>();
    return c.json(await updatePoll({ ctx: tenantCtx(c), id: params.id, input: body }));
  }
}
