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
    summary: "Polls: residents see the active ones with hasVoted; staff see all",
    description:
      "Staff (bendahara, sekretaris, admin) see every poll, drafts and closed ones included. Anyone else " +
      "sees only the polls open for voting (`aktif`); a closed poll stays readable by its id " +
      "(GET /api/musyawarah/{id}), with its results.",
    request: { query: PollListQuery },
    responses: { 200: json(listOf(Poll)), ...tenantProblems },
  };

  override async handle(c: Context<HonoEnv>) {
    const { query } = await this.getValidatedData<typeof this.schema>();
    return c.json(await listPolls({ ctx: tenantCtx(c), input: query }));
  }
}
