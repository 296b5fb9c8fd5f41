import type { Context } from "hono";
import type { RouteEnv } from "../../../core/env";
import { tenantCtx } from "../../../core/http/access";
import { Endpoint } from "../../../core/http/endpoint";
import { IdParam, json, tenantProblems } from "../../../core/http/openapi";
import { getTenantArchive } from "../archives";
import { ArchiveView } from "../schemas";

const schema = {
  tags: ["Arsip"],
  summary: "Get an archive's status",
  description:
    "Admin only, for this community's archives. The archive's status and size; `downloadUrl` once it " +
    "is ready, until `expiresAt`.",
  request: { params: IdParam },
  responses: { 200: json(ArchiveView), ...tenantProblems },
};

export class GetTenantArchive extends Endpoint {
  override schema = schema;

  override async handle(c: Context<RouteEnv>) {
    const { params } = await this.getValidatedData<typeof this.schema>();
    return c.json(await getTenantArchive({ ctx: tenantCtx(c), id: params.id }));
  }
}
