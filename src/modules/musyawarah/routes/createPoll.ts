import type { Context } from "hono";
import type { RouteEnv } from "../../../core/env";
import { tenantCtx } from "../../../core/http/access";
import { Endpoint } from "../../../core/http/endpoint";
import { json, problems } from "../../../core/http/openapi";
import { CreatePollInput, Poll } from "../schemas";
import { createPoll } from "../service";

const schema = {
  tags: ["Musyawarah"],
  summary: "Create a poll",
  description:
    "Community staff (sekretaris, bendahara, admin), with `musyawarah` on. Defines a poll: 2 to 20 " +
    "distinct options, a voting window, an optional quorum, anonymous or not, single or multiple " +
    "choice (`maxChoices`), one ballot per resident (`warga`) or per household (`kk`), results shown " +
    "always or after closing. Starts as draft, or with `status: aktif` is published at once (the " +
    "eligible voters are fixed then). 400 `invalid_schedule` when the window ends before it starts or " +
    "is already past at publication; 400 `invalid_max_choices` when `maxChoices` exceeds the options. " +
    "Audited.",
  request: { body: { content: { "application/json": { schema: CreatePollInput } } } },
  responses: { 201: json(Poll, "Created"), ...problems(400, 401, 403) },
};

export class CreatePoll extends Endpoint {
  override schema = schema;

  override async handle(c: Context<RouteEnv>) {
    const { body } = await this.getValidatedData<typeof this.schema>();
    return c.json(await createPoll({ ctx: tenantCtx(c), input: body }), 201);
  }
}
