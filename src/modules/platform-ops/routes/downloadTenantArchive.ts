import type { Context } from "hono";
import type { HonoEnv } from "../../../core/env";
import { tenantCtx } from "../../../core/http/access";
import { Endpoint } from "../../../core/http/endpoint";
import { IdParam } from "../../../core/http/openapi";
import { archiveDownloadResponses, zipResponse } from "../archiveResponse";
import { downloadTenantArchive } from "../archives";

export class DownloadTenantArchive extends Endpoint {
  override schema = {
    tags: ["Arsip"],
    summary: "Download a ready archive (409 while it is being built, 410 once expired)",
    request: { params: IdParam },
    responses: archiveDownloadResponses,
  };

  override async handle(c: Context<HonoEnv>) {
    const { params } = await this.getValidatedData<typeof this.schema>();
    return zipResponse(c, await downloadTenantArchive({ ctx: tenantCtx(c), id: params.id }));
  }
}
