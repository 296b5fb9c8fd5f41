import type { Context } from "hono";
import { ListQuery } from "../../../core/db/paging";
import type { RouteEnv } from "../../../core/env";
import { platformCtx } from "../../../core/http/access";
import { Endpoint } from "../../../core/http/endpoint";
import { IdParam, json, problems } from "../../../core/http/openapi";
import { listPlatformArchives } from "../archives";
import { ArchiveList } from "../schemas";

const schema = {
  tags: ["Platform: operations"],
  summary: "List a community's archives as an operator",
  description:
    "Platform operators only. A tenant's archives, exports and imports, newest first, with their " +
    "status, paged by `cursor`.",
  request: { params: IdParam, query: ListQuery },
  responses: { 200: json(ArchiveList), ...problems(400, 401, 403, 404) },
};

export class ListPlatformArchives extends Endpoint {
  override schema = schema;

  override async handle(c: Context<RouteEnv>) {
    const { params, query } = await this.getValidatedData<typeof this.schema>();
    return c.json(await listPlatformArchives({ ctx: platformCtx(c), id: params.id, input: query }));
  }
}
