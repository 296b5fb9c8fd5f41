import type { Context } from "hono";
import type { RouteEnv } from "../../../core/env";
import { tenantCtx } from "../../../core/http/access";
import { Endpoint } from "../../../core/http/endpoint";
import { IdParam, json, tenantProblems } from "../../../core/http/openapi";
import { Poll } from "../schemas";
import { getPoll } from "../service";

const schema = {
  tags: ["Musyawarah"],
  summary: "Get a poll with its results",
  description:
    "Members, with `musyawarah` on (only staff read a draft; others get 404). The " +
    "poll with its turnout, quorum reached or not, and the count per option when its " +
    "`resultsVisibility` allows (`always`, or `after_close` once ditutup; staff " +
    "always see them), and for residents whether they have voted. ETag and 304 for If-None-Match.",
  request: { params: IdParam },
  responses: { 200: json(Poll), ...tenantProblems },
};

export class GetPoll extends Endpoint {
  override schema = schema;

  override async handle(c: Context<RouteEnv>) {
    const { params } = await this.getValidatedData<typeof this.schema>();
    return c.json(await getPoll({ ctx: tenantCtx(c), id: params.id }));
  }
}
