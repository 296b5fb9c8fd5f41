import type { Context } from "hono";
import type { HonoEnv } from "../../../core/env";
import { tenantCtx } from "../../../core/http/access";
import { Endpoint } from "../../../core/http/endpoint";
import { IdParam, json, problems } from "../../../core/http/openapi";
import { endorseProposal } from "../proposals";
import { Proposal } from "../schemas";

export class EndorseProposal extends Endpoint {
  override schema = {
    tags: ["Usulan"],
    summary: "Endorse another resident's proposal (once each, while diajukan)",
    request: { params: IdParam },
    responses: { 200: json(Proposal), ...problems(401, 403, 404, 409, 429) },
  };

  override async handle(c: Context<HonoEnv>) {
    const { params } = await this.getValidatedData<typeof this.schema>();
    return c.json(await endorseProposal({ ctx: tenantCtx(c), id: params.id }));
  }
}
