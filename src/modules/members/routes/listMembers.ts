import type { Context } from "hono";
import type { RouteEnv } from "../../../core/env";
import { tenantCtx } from "../../../core/http/access";
import { Endpoint } from "../../../core/http/endpoint";
import { json, listOf, tenantProblems } from "../../../core/http/openapi";
import { Member, MemberListQuery } from "../schemas";
import { listMembers } from "../service";

const schema = {
  tags: ["Members"],
  summary: "List the community's members",
  description:
    "Community staff (sekretaris, bendahara, admin). Every member with their duties, residency, " +
    "housing unit and linked person, filtered by duty (or `warga`) and by text (in the name; for the " +
    "admin also in the email and number), paged by `cursor`. " +
    "Email and WhatsApp number are whole for the admin and masked for other staff.",
  request: { query: MemberListQuery },
  responses: { 200: json(listOf(Member)), ...tenantProblems },
};

export class ListMembers extends Endpoint {
  override schema = schema;

  override async handle(c: Context<RouteEnv>) {
    const { query } = await this.getValidatedData<typeof this.schema>();
    return c.json(await listMembers({ ctx: tenantCtx(c), input: query }));
  }
}
