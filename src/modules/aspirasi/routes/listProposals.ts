import type { Context } from "hono";
import type { RouteEnv } from "../../../core/env";
import { tenantCtx } from "../../../core/http/access";
import { Endpoint } from "../../../core/http/endpoint";
import { json, listOf, tenantProblems } from "../../../core/http/openapi";
import { listProposals } from "../proposals";
import { Proposal, ProposalListQuery } from "../schemas";

const schema = {
  tags: ["Usulan"],
  summary: "List proposals",
  description:
    "Members. Proposals, newest first, filtered by `status` (diajukan, diterima, ditolak), each with " +
    "its endorsement count and whether the caller endorsed it, paged by `cursor`.",
  request: { query: ProposalListQuery },
  responses: { 200: json(listOf(Proposal)), ...tenantProblems },
};

export class ListProposals extends Endpoint {
  override schema = schema;

  override async handle(c: Context<RouteEnv>) {
    const { query } = await this.getValidatedData<typeof this.schema>();
    return c.json(await listProposals({ ctx: tenantCtx(c), input: query }));
  }
}
