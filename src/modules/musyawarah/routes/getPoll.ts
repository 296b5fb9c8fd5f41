import type { Context } from "hono";
import type { HonoEnv } from "../../../core/env";
import { tenantCtx } from "../../../core/http/access";
import { Endpoint } from "../../../core/http/endpoint";
import { IdParam, json, tenantProblems } from "../../../core/http/openapi";
import { Poll } from "../schemas";
import { getPoll } from "../service";

export class GetPoll extends Endpoint {
  override schema = {
    tags: ["Musyawarah"],
    summary: "One poll with results (as visibility allows), turnout and quorum",
    request: { params: IdParam },
    responses: { 200: json(Poll), ...tenantProblems },
  };

  override async handle(c: Context<HonoEnv>) {
    const { params } = await this.getValidatedData<typeof this.schema>();
    return c.json(await getPoll({ ctx: tenantCtx(c), id: params.id }));
  }
}
