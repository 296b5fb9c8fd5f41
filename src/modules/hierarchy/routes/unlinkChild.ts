import type { Context } from "hono";
import type { HonoEnv } from "../../../core/env";
import { tenantCtx } from "../../../core/http/access";
import { Endpoint } from "../../../core/http/endpoint";
import { problems } from "../../../core/http/openapi";
import { SlugParam } from "../schemas";
import { unlinkChild } from "../service";

export class UnlinkChild extends Endpoint {
  override schema = {
    tags: ["Tenant hierarchy"],
    summary: "Unlink one of this RW's RT tenants",
    request: { params: SlugParam },
    responses: { 204: { description: "Unlinked" }, ...problems(400, 401, 403, 404) },
  };

  override async handle(c: Context<HonoEnv>) {
    const { params } = await this.getValidatedData<typeof this.schema>();
    await unlinkChild({ ctx: tenantCtx(c), slug: params.slug });
    return c.body(null, 204);
  }
}
