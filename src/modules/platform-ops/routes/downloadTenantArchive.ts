import type { Context } from "hono";
import type { RouteEnv } from "../../../core/env";
import { tenantCtx } from "../../../core/http/access";
import { Endpoint } from "../../../core/http/endpoint";
import { IdParam } from "../../../core/http/openapi";
import { archiveDownloadResponses, zipResponse } from "../archiveResponse";
import { downloadTenantArchive } from "../archives";

const schema = {
  tags: ["Arsip"],
  summary: "Download the community's archive",
  description:
    "Admin only, for this community's archives. Streams the ready ZIP. 409 `archive_not_ready` while " +
    "it is being built; 410 `archive_expired` once it has expired (ask for a new one).",
  request: { params: IdParam },
  responses: archiveDownloadResponses,
};

export class DownloadTenantArchive extends Endpoint {
  override schema = schema;

  override async handle(c: Context<RouteEnv>) {
    const { params } = await this.getValidatedData<typeof this.schema>();
    return zipResponse(c, await downloadTenantArchive({ ctx: tenantCtx(c), id: params.id }));
  }
}
