import type { Context } from "hono";
import type { HonoEnv } from "../../../core/env";
import { tenantCtx } from "../../../core/http/access";
import { Endpoint } from "../../../core/http/endpoint";
import { json, listOf, tenantProblems } from "../../../core/http/openapi";
import { Member, MemberListQuery } from "../schemas";
import { listMembers } from "../service";

export class ListMembers extends Endpoint {
  override schema = {
    tags: ["Members"],
    summary:
      "The community's members with their duties and residency, by duty (or warga) and text; contact masked for staff who are not admins",
    request: { query: MemberListQuery },
    responses: { 200: json(listOf(Member)), ...tenantProblems },
  };

  override async handle(c: Context<HonoEnv>) {
    const { query } = await this.getValidatedData<typeof this.schema>();
    return c.json(await listMembers({ ctx: tenantCtx(c), input: query }));
  }
}
