import type { Context } from "hono";
import { z } from "zod";
import type { HonoEnv } from "../../../core/env";
import { platformCtx } from "../../../core/http/access";
import { Endpoint } from "../../../core/http/endpoint";
import { IdParam, json, problems } from "../../../core/http/openapi";
import { importIntoTenant } from "../archive-imports";
import { ImportQuery, ImportResult } from "../schemas";

export class ImportArchive extends Endpoint {
  override schema = {
    tags: ["Platform: operations"],
    summary:
      "Restore an archive into an EMPTY tenant (409 otherwise): every checksum and the schema version are checked first (422, nothing written)",
    request: {
      params: IdParam,
      query: ImportQuery,
      body: {
        content: {
          "application/zip": { schema: z.string().describe("The archive, unless `archiveId` names one") },
        },
      },
    },
    responses: { 200: json(ImportResult, "Restored"), ...problems(400, 401, 403, 404, 409, 413, 415, 422) },
  };

  override async handle(c: Context<HonoEnv>) {
    const { params, query } = await this.getValidatedData<typeof this.schema>();
    const request = c.req.raw;
    const source = query.archiveId
      ? { archiveId: query.archiveId }
      : {
          body: request.body ?? new ReadableStream(),
          size: Number(request.headers.get("Content-Length") ?? ""),
          contentType: request.headers.get("Content-Type") ?? "",
        };
    return c.json(await importIntoTenant({ ctx: platformCtx(c), id: params.id, source }));
  }
}
