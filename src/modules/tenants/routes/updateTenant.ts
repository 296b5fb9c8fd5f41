import type { Context } from "hono";
import type { RouteEnv } from "../../../core/env";
import { platformCtx } from "../../../core/http/access";
import { Endpoint } from "../../../core/http/endpoint";
import { IdParam, json, problems } from "../../../core/http/openapi";
import { Tenant, UpdateTenantInput } from "../schemas";
import { updateTenant } from "../service";

const schema = {
  tags: ["Platform: tenants"],
  summary: "Update a community",
  description:
    "Platform operators only. Renames a tenant, switches feature flags (merged over the current " +
    "ones), suspends or reactivates it (active ⇄ suspended; a suspended community's members cannot " +
    "sign in or call its routes) and sets or clears an RT's parent RW directly, without the RT's " +
    "consent that an RW's link request waits for. 409 `invalid_transition` for a tenant still being " +
    "provisioned; 410 `tenant_closed` for a closed one; 400 `invalid_parent`. Audited.",
  request: { params: IdParam, body: { content: { "application/json": { schema: UpdateTenantInput } } } },
  responses: { 200: json(Tenant), ...problems(400, 401, 403, 404, 409, 410) },
};

export class UpdateTenant extends Endpoint {
  override schema = schema;

  override async handle(c: Context<RouteEnv>) {
    const { params, body } = await this.getValidatedData<typeof this.schema>();
    return c.json(await updateTenant({ ctx: platformCtx(c), id: params.id, input: body }));
  }
}
