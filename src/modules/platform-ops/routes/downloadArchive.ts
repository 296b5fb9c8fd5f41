import type { Context } from "hono";
import { z } from "zod";
import type { HonoEnv } from "../../../core/env";
import { platformCtx, tenantCtx } from "../../../core/http/access";
import { Endpoint } from "../../../core/http/endpoint";
import { IdParam, problems } from "../../../core/http/openapi";
import { downloadPlatformArchive, downloadTenantArchive } from "../archives";

const responses = {
  200: { description: "The archive", content: { "application/zip": { schema: z.string() } } },
  ...problems(401, 403, 404, 409, 410),
};

function zipResponse(
  c: Context<HonoEnv>,
  file: { body: ReadableStream; size: number; sha256: string | null; filename: string },
) {
  const headers = new Headers(c.res.headers);
  headers.set("Content-Type", "application/zip");
  headers.set("Content-Length", String(file.size));
  headers.set("Content-Disposition", `attachment; filename="${file.filename}"`);
  headers.set("Cache-Control", "private, no-store");
  if (file.sha256) {
    headers.set("X-Archive-Sha256", file.sha256);
  }
  return new Response(file.body, { status: 200, headers });
}

export class DownloadTenantArchive extends Endpoint {
  override schema = {
    tags: ["Arsip"],
    summary: "Download a ready archive (409 while it is being built, 410 once expired)",
    request: { params: IdParam },
    responses,
  };

  override async handle(c: Context<HonoEnv>) {
    const { params } = await this.getValidatedData<typeof this.schema>();
    return zipResponse(c, await downloadTenantArchive({ ctx: tenantCtx(c), id: params.id }));
  }
}

export class DownloadPlatformArchive extends Endpoint {
  override schema = {
    tags: ["Platform: operations"],
    summary: "Download any tenant's ready archive (409 while it is being built, 410 once expired)",
    request: { params: IdParam },
    responses,
  };

  override async handle(c: Context<HonoEnv>) {
    const { params } = await this.getValidatedData<typeof this.schema>();
    return zipResponse(c, await downloadPlatformArchive({ ctx: platformCtx(c), id: params.id }));
  }
}
