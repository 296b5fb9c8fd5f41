import type { Context } from "hono";
import type { HonoEnv } from "../../../core/env";
import { tenantCtx } from "../../../core/http/access";
import { Endpoint } from "../../../core/http/endpoint";
import { json, problems } from "../../../core/http/openapi";
import { ChildTenant, LinkChildInput } from "../schemas";
import { linkChild } from "../service";

export class LinkChild extends Endpoint {
  override schema = {
    tags: ["Tenant hierarchy"],
    summary: "Link an RT tenant, by its slug, to this RW (200 when it already is)",
    request: { body: { content: { "application/json": { schema: LinkChildInput } } } },
    responses: {
      201: json(ChildTenant, "Linked"),
      200: json(ChildTenant, "Already linked to this RW"),
      ...problems(400, 401, 403, 404, 409),
    },
  };

  override async handle(c: Context<HonoEnv>) {
    const { body } = await this.getValidatedData<typeof this.schema>();
    const { child, created } = await linkChild({ ctx: tenantCtx(c), input: body });
    return c.json(child, created ? 201 : 200);
  }
}
