import type { Context } from "hono";
import type { RouteEnv } from "../../../core/env";
import { tenantCtx } from "../../../core/http/access";
import { Endpoint } from "../../../core/http/endpoint";
import { json, problems } from "../../../core/http/openapi";
import { createProposal } from "../proposals";
import { CreateProposalInput, Proposal } from "../schemas";

const schema = {
  tags: ["Usulan"],
  summary: "Propose something for the community",
  description:
    "Residents only. Files a proposal (title and description) that every member can read and endorse; " +
    "it starts as diajukan until staff accept or reject it. At most 10 proposals per member per day " +
    "(429 `rate_limited`).",
  request: { body: { content: { "application/json": { schema: CreateProposalInput } } } },
  responses: { 201: json(Proposal, "Created"), ...problems(400, 401, 403, 429) },
};

export class CreateProposal extends Endpoint {
  override schema = schema;

  override async handle(c: Context<RouteEnv>) {
    const { body } = await this.getValidatedData<typeof this.schema>();
    return c.json(await createProposal({ ctx: tenantCtx(c), input: body }), 201);
  }
}
