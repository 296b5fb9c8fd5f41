import type { Context } from "hono";
import { ListQuery } from "../../../core/db/paging";
import type { HonoEnv } from "../../../core/env";
import { tenantCtx } from "../../../core/http/access";
import { Endpoint } from "../../../core/http/endpoint";
import { json, tenantProblems } from "../../../core/http/openapi";
import { listTenantArchives } from "../archives";
import { ArchiveList } from "../schemas";

export class ListTenantArchives extends Endpoint {
  override schema = {
    tags: ["Arsip"],
    summary: "The community's archives (exports, and imports the operator made), newest first",
    request: { query: ListQuery },
    responses: { 200: json(ArchiveList), ...tenantProblems },
  };

  override async handle(c: Context<HonoEnv>) {
    const { query } = await this.getValidatedData<typeof this.schema>();
    return c.json(await listTenantArchives({ ctx: tenantCtx(c), input: query }));
  }
}
