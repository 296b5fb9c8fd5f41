import type { Context } from "hono";
import type { RouteEnv } from "../../../core/env";
import { tenantCtx } from "../../../core/http/access";
import { Endpoint } from "../../../core/http/endpoint";
import { IdParam, json, problems } from "../../../core/http/openapi";
import { Poll, VoteInput } from "../schemas";
import { castVote } from "../service";

const schema = {
  tags: ["Musyawarah"],
  summary: "Vote in a poll",
  description:
    "Residents only, with `musyawarah` on. Casts one ballot: one option, or up to `maxChoices` " +
    "distinct options of a multiple-choice poll (400 `invalid_choice` otherwise); one ballot per " +
    "resident, or per household for a `kk` poll (409 `profile_incomplete` without a housing unit). " +
    "Ballots are final: 409 `already_voted`. 409 `poll_not_open`, `poll_not_started`, `poll_ended` or " +
    "`poll_closed` outside the voting window, 409 `not_eligible` for a resident who was not a member " +
    "when the poll opened; 404 when no published poll has this id. Answers the poll with its live " +
    "count as visibility allows.",
  request: { params: IdParam, body: { content: { "application/json": { schema: VoteInput } } } },
  responses: {
    200: json(Poll, "The ballot was counted; the poll with updated counts"),
    ...problems(400, 401, 403, 404, 409),
  },
};

export class CastVote extends Endpoint {
  override schema = schema;

  override async handle(c: Context<RouteEnv>) {
    const { params, body } = await this.getValidatedData<typeof this.schema>();
    const keep = (work: Promise<unknown>) => c.executionCtx.waitUntil(work);
    return c.json(await castVote({ ctx: tenantCtx(c), id: params.id, input: body, keep }));
  }
}
