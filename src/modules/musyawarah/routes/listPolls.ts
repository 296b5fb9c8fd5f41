import type { Context } from "hono";
import type { RouteEnv } from "../../../core/env";
import { tenantCtx } from "../../../core/http/access";
import { Endpoint } from "../../../core/http/endpoint";
import { json, listOf, tenantProblems } from "../../../core/http/openapi";
import { Poll, PollListQuery } from "../schemas";
import { listPolls } from "../service";

const schema = {
  tags: ["Musyawarah"],
  summary: "List polls",
  description:
    "Members, with `musyawarah` switched on. Staff (bendahara, sekretaris, admin) see every poll, " +
    "drafts and closed ones included, filtered by `status` (draft, aktif, ditutup); anyone else sees " +
    "only the polls open for voting (`aktif`, residents with `hasVoted`), and reaches a closed poll's " +
    "results through `GET /api/musyawarah/{id}` where its `resultsVisibility` allows. Newest first, " +
    "paged by `cursor`.",
  request: { query: PollListQuery },
  responses: { 200: json(listOf(Poll)), ...tenantProblems },
};

export class ListPolls extends Endpoint {
  override schema = schema;

  override async handle(c: Context<RouteEnv>) {
    const { query } = await this.getValidatedData<typeof this.schema>();
    return c.json(await listPolls({ ctx: tenantCtx(c), input: query }));
  }
}
