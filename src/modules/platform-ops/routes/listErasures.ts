import type { Context } from "hono";
import { ListQuery } from "../../../core/db/paging";
import type { RouteEnv } from "../../../core/env";
import { platformCtx } from "../../../core/http/access";
import { Endpoint } from "../../../core/http/endpoint";
import { IdParam, json, problems } from "../../../core/http/openapi";
import { listErasures } from "../erasure";
import { ErasureList } from "../schemas";

const schema = {
  tags: ["Platform: operations"],
  summary: "List the personal-data erasures done in a community",
  description:
    "Platform operators only. One entry per person erased from the tenant (a repeated erasure " +
    "reuses the person's reference), newest first: the account, its anonymous reference, when and " +
    "by which operator. Paged by `cursor`.",
  request: { params: IdParam, query: ListQuery },
  responses: { 200: json(ErasureList), ...problems(400, 401, 403, 404) },
};

export class ListErasures extends Endpoint {
  override schema = schema;

  override async handle(c: Context<RouteEnv>) {
    const { params, query } = await this.getValidatedData<typeof this.schema>();
    return c.json(await listErasures({ ctx: platformCtx(c), id: params.id, input: query }));
  }
}
