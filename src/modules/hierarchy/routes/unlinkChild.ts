import type { Context } from "hono";
import type { HonoEnv } from "../../../core/env";
import { tenantCtx } from "../../../core/http/access";
import { Endpoint } from "../../../core/http/endpoint";
import { problems } from "../../../core/http/openapi";
import { unlinkChild } from "../links";
import { SlugParam } from "../schemas";

export class UnlinkChild extends Endpoint {
  override schema = {
    tags: ["Tenant hierarchy"],
    summary: "Unlink one of this RW's RT tenants, or withdraw this RW's request to one",
    request: { params: SlugParam },
    responses: { 204: { description: "Unlinked or withdrawn" }, ...problems(400, 401, 403, 404) },
  };

  override async handle(c: Context<HonoEnv>) {
    const { params } = await this.getValidatedData<typeof this.schema>();
    await unlinkChild({ ctx: tenantCtx(c), slug: params.slug });
    return c.body(null, 204);
  }
}
