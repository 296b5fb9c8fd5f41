import type { Context } from "hono";
import type { RouteEnv } from "../../../core/env";
import { platformCtx } from "../../../core/http/access";
import { Endpoint } from "../../../core/http/endpoint";
import { IdParam } from "../../../core/http/openapi";
import { archiveDownloadResponses, zipResponse } from "../archiveResponse";
import { downloadPlatformArchive } from "../archives";

const schema = {
  tags: ["Platform: operations"],
  summary: "Download any community's archive as an operator",
  description:
    "Platform operators only. Streams any tenant's ready ZIP. 409 `archive_not_ready` while it is " +
    "being built; 410 `archive_expired` once it has expired.",
  request: { params: IdParam },
  responses: archiveDownloadResponses,
};

export class DownloadPlatformArchive extends Endpoint {
  override schema = schema;

  override async handle(c: Context<RouteEnv>) {
    const { params } = await this.getValidatedData<typeof this.schema>();
    return zipResponse(c, await downloadPlatformArchive({ ctx: platformCtx(c), id: params.id }));
  }
}
