import type { Context } from "hono";
import type { RouteEnv } from "../../../core/env";
import { tenantCtx } from "../../../core/http/access";
import { Endpoint } from "../../../core/http/endpoint";
import { json, problems, tenantProblems } from "../../../core/http/openapi";
import { requestTenantExport } from "../archive-exports";
import { ArchiveRequested } from "../schemas";

const schema = {
  tags: ["Arsip"],
  summary: "Ask for the community's archive",
  description:
    "Admin only. Queues an archive of the community: a ZIP of every table as JSON and every stored " +
    "file, with a manifest of checksums, and a handover pack a new committee or a kelurahan opens " +
    "(`index.html` and `serah-terima/`: registry, dues and cash book as xlsx, monthly reports as xlsx " +
    "and PDF, issued letters as PDF), built in the background (202 with its id; poll `GET " +
    "/api/archives/{id}`). Limited per community (429 `rate_limited`). Audited.",
  responses: {
    202: json(ArchiveRequested, "Queued; follow it at its status URL"),
    ...tenantProblems,
    ...problems(429),
  },
};

export class RequestTenantExport extends Endpoint {
  override schema = schema;

  override async handle(c: Context<RouteEnv>) {
    const result = await requestTenantExport({
      ctx: tenantCtx(c),
      after: (work) => c.executionCtx.waitUntil(work),
    });
    return c.json(result, 202);
  }
}
