import type { Context } from "hono";
import type { HonoEnv } from "../../../core/env";
import { tenantCtx } from "../../../core/http/access";
import { Endpoint } from "../../../core/http/endpoint";
import { json, tenantProblems } from "../../../core/http/openapi";
import { Member, UserIdParam } from "../schemas";
import { showMember } from "../service";

export class GetMember extends Endpoint {
  override schema = {
    tags: ["Members"],
    summary:
      "One member with their duties and residency, contact masked for staff who are not admins; its ETag is what a change of duties, person link or removal sends in If-Match",
    request: { params: UserIdParam },
    responses: { 200: json(Member), ...tenantProblems },
  };

  override async handle(c: Context<HonoEnv>) {
    const { params } = await this.getValidatedData<typeof this.schema>();
    return c.json(await showMember({ ctx: tenantCtx(c), id: params.userId }));
  }
}
