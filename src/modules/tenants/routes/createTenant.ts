import type { Context } from "hono";
import type { HonoEnv } from "../../../core/env";
import { platformCtx } from "../../../core/http/access";
import { Endpoint } from "../../../core/http/endpoint";
import { json, problems } from "../../../core/http/openapi";
import { CreatedTenant, CreateTenantInput } from "../schemas";
import { createTenant } from "../service";

export class CreateTenant extends Endpoint {
  override schema = {
    tags: ["Platform: tenants"],
    summary:
      "Create a tenant: claims a free database slot and migrates it, usable at once, and invites its first admin",
    request: { body: { content: { "application/json": { schema: CreateTenantInput } } } },
    responses: { 201: json(CreatedTenant, "Created"), ...problems(400, 401, 403, 409, 503) },
  };

  override async handle(c: Context<HonoEnv>) {
    const { body } = await this.getValidatedData<typeof this.schema>();
    return c.json(await createTenant({ ctx: platformCtx(c), input: body }), 201);
  }
}
