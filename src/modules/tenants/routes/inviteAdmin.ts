import type { Context } from "hono";
import type { RouteEnv } from "../../../core/env";
import { platformCtx } from "../../../core/http/access";
import { Endpoint } from "../../../core/http/endpoint";
import { IdParam, json, problems } from "../../../core/http/openapi";
import { inviteTenantAdmin } from "../admins";
import { AdminInvitation, AdminInviteeInput } from "../schemas";

const schema = {
  tags: ["Platform: tenants"],
  summary: "Invite an admin into a community",
  description:
    "Platform operators only. Invites a new admin (a set-password link for a new account, a join link " +
    "for an existing one; a member without the duty gets it), or sends again the link of an admin who " +
    "never set a password. Answers 202 with the channel used, never a token. 409 `already_member` for " +
    "an admin who already signs in; 410 `tenant_closed` for a closed community; 404 for an unknown " +
    "one. Audited.",
  request: { params: IdParam, body: { content: { "application/json": { schema: AdminInviteeInput } } } },
  responses: { 202: json(AdminInvitation, "Sent"), ...problems(400, 401, 403, 404, 409, 410) },
};

export class InviteAdmin extends Endpoint {
  override schema = schema;

  override async handle(c: Context<RouteEnv>) {
    const { params, body } = await this.getValidatedData<typeof this.schema>();
    return c.json(await inviteTenantAdmin({ ctx: platformCtx(c), id: params.id, input: body }), 202);
  }
}
