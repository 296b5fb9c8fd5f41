import type { Context } from "hono";
import type { RouteEnv } from "../../../core/env";
import { platformCtx } from "../../../core/http/access";
import { Endpoint } from "../../../core/http/endpoint";
import { json, listOf, problems } from "../../../core/http/openapi";
import { TenantListItem, TenantListQuery } from "../schemas";
import { listTenants } from "../service";

const schema = {
  tags: ["Platform: tenants"],
  summary: "List communities",
  description:
    "Platform operators only. Every tenant with its status (provisioning, active, suspended, " +
    "ditutup), type, flags, parent RW and how many admins it has, paged by `cursor`.",
  request: { query: TenantListQuery },
  responses: { 200: json(listOf(TenantListItem)), ...problems(400, 401, 403) },
};

export class ListTenants extends Endpoint {
  override schema = schema;

  override async handle(c: Context<RouteEnv>) {
    const { query } = await this.getValidatedData<typeof this.schema>();
    return c.json(await listTenants({ ctx: platformCtx(c), input: query }));
  }
}
