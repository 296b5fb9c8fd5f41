import type { Context } from "hono";
import type { RouteEnv } from "../../../core/env";
import { tenantCtx } from "../../../core/http/access";
import { Endpoint } from "../../../core/http/endpoint";
import { problems } from "../../../core/http/openapi";
import { unlinkChild } from "../links";
import { SlugParam } from "../schemas";

const schema = {
  tags: ["Tenant hierarchy"],
  summary: "Unlink an RT community or withdraw a request",
  description:
    "Admin of an RW community. Unlinks one of its RTs, or withdraws its request to one; from then on " +
    "the RW reads nothing of that RT. 404 for an RT that is neither linked to nor asked by this RW.",
  request: { params: SlugParam },
  responses: { 204: { description: "Unlinked or withdrawn" }, ...problems(400, 401, 403, 404) },
};

export class UnlinkChild extends Endpoint {
  override schema = schema;

  override async handle(c: Context<RouteEnv>) {
    const { params } = await this.getValidatedData<typeof this.schema>();
    await unlinkChild({ ctx: tenantCtx(c), slug: params.slug });
    return c.body(null, 204);
  }
}
