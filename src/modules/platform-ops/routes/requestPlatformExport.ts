import type { Context } from "hono";
import type { RouteEnv } from "../../../core/env";
import { platformCtx } from "../../../core/http/access";
import { Endpoint } from "../../../core/http/endpoint";
import { IdParam, json, problems } from "../../../core/http/openapi";
import { requestPlatformExport } from "../archive-exports";
import { ArchiveRequested } from "../schemas";

const schema = {
  tags: ["Platform: operations"],
  summary: "Ask for a community's archive as an operator",
  description:
    "Platform operators only. The operator's copy of what a community's admin can ask: queues an " +
    "archive of the tenant, built in the background (202 with its id). Audited.",
  request: { params: IdParam },
  responses: { 202: json(ArchiveRequested, "Queued"), ...problems(401, 403, 404) },
};

export class RequestPlatformExport extends Endpoint {
  override schema = schema;

  override async handle(c: Context<RouteEnv>) {
    const { params } = await this.getValidatedData<typeof this.schema>();
    const result = await requestPlatformExport({
      ctx: platformCtx(c),
      id: params.id,
      after: (work) => c.executionCtx.waitUntil(work),
    });
    return c.json(result, 202);
  }
}
