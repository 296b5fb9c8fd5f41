import type { Context } from "hono";
import type { HonoEnv } from "../../../core/env";
import { platformCtx } from "../../../core/http/access";
import { Endpoint } from "../../../core/http/endpoint";
import { IdParam } from "../../../core/http/openapi";
import { archiveDownloadResponses, zipResponse } from "../archiveResponse";
import { downloadPlatformArchive } from "../archives";

export class DownloadPlatformArchive extends Endpoint {
  override schema = {
    tags: ["Platform: operations"],
    summary: "Download any tenant's ready archive (409 while it is being built, 410 once expired)",
    request: { params: IdParam },
    responses: archiveDownloadResponses,
  };

  override async handle(c: Context<HonoEnv>) {
    const { params } = await this.getValidatedData<typeof this.schema>();
    return zipResponse(c, await downloadPlatformArchive({ ctx: platformCtx(c), id: params.id }));
  }
}
