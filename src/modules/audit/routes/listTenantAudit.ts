import type { Context } from "hono";
import type { RouteEnv } from "../../../core/env";
import { tenantCtx } from "../../../core/http/access";
import { Endpoint } from "../../../core/http/endpoint";
import { json, listOf, tenantProblems } from "../../../core/http/openapi";
import { AuditEntry, AuditQuery } from "../schemas";
import { listTenantAudit } from "../service";

const schema = {
  tags: ["Audit"],
  summary: "List the community's audit log",
  description:
    "Admin only. Who changed what in this community, newest first: each record names the actor, the " +
    "action, the target and its details, filtered by action, actor and days, paged by `cursor`.",
  request: { query: AuditQuery },
  responses: { 200: json(listOf(AuditEntry)), ...tenantProblems },
};

export class ListTenantAudit extends Endpoint {
  override schema = schema;

  override async handle(c: Context<RouteEnv>) {
    const { query } = await this.getValidatedData<typeof this.schema>();
    return c.json(await listTenantAudit({ ctx: tenantCtx(c), input: query }));
  }
}
