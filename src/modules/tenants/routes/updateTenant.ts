import type { Context } from "hono";
import type { HonoEnv } from "../../../core/env";
import { platformCtx } from "../../../core/http/access";
import { Endpoint } from "../../../core/http/endpoint";
import { IdParam, json, problems } from "../../../core/http/openapi";
import { Tenant, UpdateTenantInput } from "../schemas";
import { updateTenant } from "../service";

export class UpdateTenant extends Endpoint {
  override schema = {
    tags: ["Platform: tenants"],
    summary: "Rename a tenant, switch feature flags, suspend or reactivate, set or clear its parent RW",
    request: { params: IdParam, body: { content: { "application/json": { schema: UpdateTenantInput } } } },
    responses: { 200: json(Tenant), ...problems(400, 401, 403, 404, 409, 410) },
  };

  override async handle(c: Context<HonoEnv>) {
    const { params, body } = await this.getValidatedData<typeof this.schema>();
    return c.json(await updateTenant({ ctx: platformCtx(c), id: params.id, input: body }));
  }
}
