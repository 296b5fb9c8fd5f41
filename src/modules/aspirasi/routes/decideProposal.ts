import type { Context } from "hono";
import type { RouteEnv } from "../../../core/env";
import { tenantCtx } from "../../../core/http/access";
import { Endpoint } from "../../../core/http/endpoint";
import { IdParam, json, problems } from "../../../core/http/openapi";
import { decideProposal } from "../proposals";
import { DecideProposalInput, Proposal } from "../schemas";

const schema = {
  tags: ["Usulan"],
  summary: "Accept or reject a proposal",
  description:
    "Community staff (sekretaris, bendahara, admin). Moves diajukan → diterima or ditolak with a " +
    "note, once; the proposer is told. 409 `invalid_transition` when the proposal was already " +
    "decided. Optional If-Match (412 `precondition_failed`). Audited.",
  request: { params: IdParam, body: { content: { "application/json": { schema: DecideProposalInput } } } },
  responses: { 200: json(Proposal), ...problems(400, 401, 403, 404, 409) },
};

export class DecideProposal extends Endpoint {
  override schema = schema;

  override async handle(c: Context<RouteEnv>) {
    const { params, body } = await this.getValidatedData<typeof this.schema>();
    return c.json(await decideProposal({ ctx: tenantCtx(c), id: params.id, input: body }));
  }
}
