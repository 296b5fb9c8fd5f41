import type { Context } from "hono";
import type { HonoEnv } from "../../../core/env";
import { tenantCtx } from "../../../core/http/access";
import { Endpoint } from "../../../core/http/endpoint";
import { json, listOf, tenantProblems } from "../../../core/http/openapi";
import { Poll, PollListQuery } from "../schemas";
import { listPolls } from "../service";

export class ListPolls extends Endpoint {
  override schema = {
    tags: ["Musyawarah"],
    summary: "Polls: residents see open and closed ones with hasVoted; staff see all",
    request: { query: PollListQuery },
    responses: { 200: json(listOf(Poll)), ...tenantProblems },
  };

  override async handle(c: Context<HonoEnv>) {
    const { query } = await this.getValidatedData<typeof this.schema>();
    return c.json(await listPolls({ ctx: tenantCtx(c), input: query }));
  }
}
