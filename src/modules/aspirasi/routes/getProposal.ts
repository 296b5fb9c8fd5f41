import type { Context } from "hono";
import type { RouteEnv } from "../../../core/env";
import { tenantCtx } from "../../../core/http/access";
import { Endpoint } from "../../../core/http/endpoint";
import { IdParam, json, tenantProblems } from "../../../core/http/openapi";
import { getProposal } from "../proposals";
import { Proposal } from "../schemas";

const schema = {
  tags: ["Usulan"],
  summary: "Get a proposal",
  description:
    "Members. One proposal with its status, the staff's note once decided, its endorsement count and " +
    "whether the caller endorsed it. ETag and 304 for If-None-Match.",
  request: { params: IdParam },
  responses: { 200: json(Proposal), ...tenantProblems },
};

export class GetProposal extends Endpoint {
  override schema = schema;

  override async handle(c: Context<RouteEnv>) {
    const { params } = await this.getValidatedData<typeof this.schema>();
    return c.json(await getProposal({ ctx: tenantCtx(c), id: params.id }));
  }
}
