import type { Context } from "hono";
import type { HonoEnv } from "../../../core/env";
import { tenantCtx } from "../../../core/http/access";
import { Endpoint } from "../../../core/http/endpoint";
import { IdParam, json, problems } from "../../../core/http/openapi";
import { Poll, VoteInput } from "../schemas";
import { castVote } from "../service";

export class CastVote extends Endpoint {
  override schema = {
    tags: ["Musyawarah"],
    summary: "Cast a ballot: one option, or up to maxChoices when multiple choice is on",
    request: { params: IdParam, body: { content: { "application/json": { schema: VoteInput } } } },
    responses: {
      200: json(Poll, "The ballot was counted; the poll with updated counts"),
      ...problems(400, 401, 403, 404, 409),
    },
  };

  override async handle(c: Context<HonoEnv>) {
    const { params, body } = await this.getValidatedData<typeof this.schema>();
    const keep = (work: Promise<unknown>) => c.executionCtx.waitUntil(work);
    return c.json(await castVote({ ctx: tenantCtx(c), id: params.id, input: body, keep }));
  }
}
