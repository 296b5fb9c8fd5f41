import type { Context } from "hono";
import { ListQuery } from "../../../core/db/paging";
import type { RouteEnv } from "../../../core/env";
import { tenantCtx } from "../../../core/http/access";
import { Endpoint } from "../../../core/http/endpoint";
import { json, tenantProblems } from "../../../core/http/openapi";
import { listTenantArchives } from "../archives";
import { ArchiveList } from "../schemas";

const schema = {
  tags: ["Arsip"],
  summary: "List the community's archives",
  description:
    "Admin only. The community's archives (its exports, and the imports an operator made into it), " +
    "newest first, with their status (queued, running, ready, failed, expired), paged by `cursor`.",
  request: { query: ListQuery },
  responses: { 200: json(ArchiveList), ...tenantProblems },
};

export class ListTenantArchives extends Endpoint {
  override schema = schema;

  override async handle(c: Context<RouteEnv>) {
    const { query } = await this.getValidatedData<typeof this.schema>();
    return c.json(await listTenantArchives({ ctx: tenantCtx(c), input: query }));
  }
}
