import type { Context } from "hono";
import { ListQuery } from "../../../core/db/paging";
import type { RouteEnv } from "../../../core/env";
import { tenantCtx } from "../../../core/http/access";
import { Endpoint } from "../../../core/http/endpoint";
import { json, listOf, tenantProblems } from "../../../core/http/openapi";
import { PendingInvitation } from "../schemas";
import { listInvitations } from "../service";

const schema = {
  tags: ["Members"],
  summary: "List the community's pending invitations",
  description:
    "Admin only. Invitations that can still be accepted, newest first, paged by `cursor`: new " +
    "accounts' set-password links and existing accounts' join links, unused and unexpired. Each names " +
    "the person as the inviter did (contact masked), the duties it offers, who sent it, the channel, " +
    "when it was sent and when it expires. A newer invitation to the same person retires the earlier " +
    "ones, and removing a member retires theirs, so neither is listed.",
  request: { query: ListQuery },
  responses: { 200: json(listOf(PendingInvitation)), ...tenantProblems },
};

export class ListInvitations extends Endpoint {
  override schema = schema;

  override async handle(c: Context<RouteEnv>) {
    const { query } = await this.getValidatedData<typeof this.schema>();
    return c.json(await listInvitations({ ctx: tenantCtx(c), input: query }));
  }
}
