import type { Context } from "hono";
import type { RouteEnv } from "../../../core/env";
import { tenantCtx } from "../../../core/http/access";
import { Endpoint } from "../../../core/http/endpoint";
import { IdParam, json, problems } from "../../../core/http/openapi";
import { endorseProposal } from "../proposals";
import { Proposal } from "../schemas";

const schema = {
  tags: ["Usulan"],
  summary: "Endorse a proposal",
  description:
    "Residents only. Adds the caller's endorsement to another resident's proposal while it is " +
    "diajukan, once each: 409 `own_proposal`, `proposal_closed` or `already_endorsed`. At most 60 " +
    "endorsements per member per day (429 `rate_limited`). Answers the proposal with its new count.",
  request: { params: IdParam },
  responses: { 200: json(Proposal), ...problems(401, 403, 404, 409, 429) },
};

export class EndorseProposal extends Endpoint {
  override schema = schema;

  override async handle(c: Context<RouteEnv>) {
    const { params } = await this.getValidatedData<typeof this.schema>();
    return c.json(await endorseProposal({ ctx: tenantCtx(c), id: params.id }));
  }
}
