import type { Context } from "hono";
import { z } from "zod";
import type { RouteEnv } from "../../../core/env";
import { platformCtx } from "../../../core/http/access";
import { Endpoint } from "../../../core/http/endpoint";
import { IdParam, json, problems } from "../../../core/http/openapi";
import { importIntoTenant } from "../archive-imports";
import { ImportQuery, ImportResult } from "../schemas";

const schema = {
  tags: ["Platform: operations"],
  summary: "Restore an archive into an empty community",
  description:
    "Platform operators only. Restores an archive, uploaded as the `application/zip` body or named by " +
    "`archiveId` (a ready export), into a tenant whose database is empty: 409 `tenant_not_empty` " +
    "otherwise, or while another import into it runs; 409 `archive_not_ready` when `archiveId` is not " +
    "a ready export. Every checksum, the signature and the schema version are checked first, and " +
    "nothing is written when one fails: 422 `archive_checksum_mismatch`, `archive_signature_invalid`, " +
    "`archive_schema_mismatch` or `archive_invalid`. Audited.",
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

export class ImportArchive extends Endpoint {
  override schema = schema;

  override async handle(c: Context<RouteEnv>) {
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
