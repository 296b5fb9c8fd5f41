import type { Context } from "hono";
import type { RouteEnv } from "../../../core/env";
import { tenantCtx } from "../../../core/http/access";
import { Endpoint } from "../../../core/http/endpoint";
import { json, tenantProblems } from "../../../core/http/openapi";
import { Member, UserIdParam } from "../schemas";
import { showMember } from "../service";

const schema = {
  tags: ["Members"],
  summary: "Get one member",
  description:
    "Community staff (sekretaris, bendahara, admin). One member of this community by user id, as the " +
    "list shows them (contact masked for staff who are not admins); 404 for anyone who is not a " +
    "member here. Its ETag is what a change of duties, a person link or a removal sends in If-Match " +
    "(304 for a matching If-None-Match).",
  request: { params: UserIdParam },
  responses: { 200: json(Member), ...tenantProblems },
};

export class GetMember extends Endpoint {
  override schema = schema;

  override async handle(c: Context<RouteEnv>) {
    const { params } = await this.getValidatedData<typeof this.schema>();
    return c.json(await showMember({ ctx: tenantCtx(c), id: params.userId }));
  }
}
