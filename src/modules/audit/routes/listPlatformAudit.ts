import type { Context } from "hono";
import type { RouteEnv } from "../../../core/env";
import { platformCtx } from "../../../core/http/access";
import { Endpoint } from "../../../core/http/endpoint";
import { json, listOf, problems } from "../../../core/http/openapi";
import { AuditEntry, PlatformAuditQuery } from "../schemas";
import { listPlatformAudit } from "../service";

const schema = {
  tags: ["Platform: audit"],
  summary: "List the platform audit log",
  description:
    "Platform operators only. Audit records across tenants, newest first, filtered by tenant (slug, " +
    "id, or `platform` for control-plane records), actor and days, paged by `cursor`.",
  request: { query: PlatformAuditQuery },
  responses: { 200: json(listOf(AuditEntry)), ...problems(400, 401, 403) },
};

export class ListPlatformAudit extends Endpoint {
  override schema = schema;

  override async handle(c: Context<RouteEnv>) {
    const { query } = await this.getValidatedData<typeof this.schema>();
    return c.json(await listPlatformAudit({ ctx: platformCtx(c), input: query }));
  }
}
