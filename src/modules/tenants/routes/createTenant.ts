import type { Context } from "hono";
import type { RouteEnv } from "../../../core/env";
import { platformCtx } from "../../../core/http/access";
import { Endpoint } from "../../../core/http/endpoint";
import { json, problems } from "../../../core/http/openapi";
import { CreatedTenant, CreateTenantInput } from "../schemas";
import { createTenant } from "../service";

const schema = {
  tags: ["Platform: tenants"],
  summary: "Create a community",
  description:
    "Platform operators only. Claims a free tenant database slot, migrates it and activates the " +
    "community at once (provisioning → active), with the feature flags given over the defaults, an " +
    "optional parent RW for an RT (`parentSlug`), and an invitation to its first admin (a " +
    "set-password link, or a join link for an existing account). 409 `slug_taken`; 400 " +
    "`invalid_parent` when the parent is not an existing RW or the tenant is not an RT; 503 " +
    "`no_free_slot` when every slot is taken. Audited.",
  request: { body: { content: { "application/json": { schema: CreateTenantInput } } } },
  responses: { 201: json(CreatedTenant, "Created"), ...problems(400, 401, 403, 409, 503) },
};

export class CreateTenant extends Endpoint {
  override schema = schema;

  override async handle(c: Context<RouteEnv>) {
    const { body } = await this.getValidatedData<typeof this.schema>();
    return c.json(await createTenant({ ctx: platformCtx(c), input: body }), 201);
  }
}
